import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp, type TestMember } from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { consentedMember, scriptedTranscriber, uploadRecording } from '../../test/voice-member'
import { pcmToWav, PCM_BYTES_PER_SECOND } from '../../ai/speech/audio'

/** A transcriber that hears the same memo in any audio: the summary, not recognition, is tested. */
const memoTranscriber = scriptedTranscriber(
  [
    { start: 0, end: 4, text: 'This is Anna Kovacs with notes on the Henderson lease.' },
    { start: 4, end: 9, text: 'We agreed to reject the rent increase of twelve percent.' },
    { start: 9, end: 14, text: 'Tom Baker will send the revised draft to the landlord by Friday.' },
  ],
  'memo',
)

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp({ engines: { transcriber: memoTranscriber } })
  alice = await consentedMember(t)
})
afterAll(() => t.close())

describe('memo summaries', () => {
  it('saves the memo summary with the recording, so a later read (a reload) shows it', async () => {
    const silence = pcmToWav(Buffer.alloc(PCM_BYTES_PER_SECOND))
    const res = await uploadRecording(t, alice, new Uint8Array(silence))
    expect(res.statusCode).toBe(202)
    const { recording, job } = res.json() as { recording: { id: string }; job: { id: string } }
    expect(recording).toMatchObject({ memoSummary: null })
    const done = await finishedJob(t, alice, job.id)
    expect(done.status).toBe('succeeded')

    const expected = {
      decisions: [{ text: 'Reject rent increase of twelve percent', segment: 1, start: 4 }],
      actionItems: [
        {
          text: 'Tom Baker: send revised draft to landlord (due Friday)',
          task: 'Send revised draft to landlord',
          owner: 'Tom Baker',
          due: 'Friday',
          segment: 2,
          start: 9,
        },
      ],
      names: [
        { name: 'Anna Kovacs', segment: 0, start: 0 },
        { name: 'Henderson', segment: 0, start: 0 },
        { name: 'Tom Baker', segment: 2, start: 9 },
      ],
    }
    expect((done.result as { memoSummary?: unknown }).memoSummary).toMatchObject(expected)
    const detail = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/recordings/${recording.id}`,
      headers: alice.headers,
    })
    expect(detail.json().memoSummary).toMatchObject(expected)
    const list = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/recordings`,
      headers: alice.headers,
    })
    const listed = (list.json() as { items: { id: string; memoSummary: unknown }[] }).items.find(
      (r) => r.id === recording.id,
    )
    expect(listed?.memoSummary).toMatchObject(expected)
  })
})
