import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp, type TestMember } from '../../test/test-app'
import { consentedMember, uploadRecording } from '../../test/voice-member'
import { spokenWav } from '../../test/test-audio'
import { pcmToWav, PCM_BYTES_PER_SECOND } from '../../ai/speech/audio'

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp()
  alice = await consentedMember(t)
})
afterAll(() => t.close())

const upload = (bytes: Uint8Array) => uploadRecording(t, alice, bytes)

const get = (url: string) =>
  t.app
    .inject({ method: 'GET', url: `/api/v1/orgs/${alice.orgId}${url}`, headers: alice.headers })
    .then((res) => res.json() as { status: string })

async function until(url: string, done: (status: string) => boolean) {
  for (let i = 0; i < 600; i++) {
    const { status } = await get(url)
    if (done(status)) return status
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${url} never reached the awaited status`)
}

describe('transcription jobs', () => {
  it('stops transcribing when the job is cancelled, and marks the recording cancelled', async () => {
    const long = await spokenWav(
      'The tenant shall pay the rent on the first day of each month.',
      20,
    )
    const res = await upload(long)
    expect(res.statusCode).toBe(202)
    const { recording, job } = res.json() as { recording: { id: string }; job: { id: string } }
    await until(`/jobs/${job.id}`, (status) => status === 'running')
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/jobs/${job.id}/cancel`,
      headers: alice.headers,
    })
    expect(cancel.statusCode).toBe(200)
    expect(await until(`/jobs/${job.id}`, (s) => !['queued', 'running'].includes(s))).toBe(
      'cancelled',
    )
    expect(await until(`/recordings/${recording.id}`, (s) => s !== 'transcribing')).toBe(
      'cancelled',
    )
  })

  it('answers 503 naming what to install when ffmpeg is missing, storing nothing', async () => {
    const before = ((await get('/recordings')) as unknown as { total: number }).total
    const path0 = process.env.PATH
    process.env.PATH = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-empty-path-'))
    try {
      const res = await upload(pcmToWav(Buffer.alloc(PCM_BYTES_PER_SECOND)))
      expect(res.statusCode).toBe(503)
      expect(res.json()).toMatchObject({
        code: 'engine_unavailable',
        detail: expect.stringContaining('ffmpeg'),
      })
    } finally {
      process.env.PATH = path0
    }
    const after = ((await get('/recordings')) as unknown as { total: number }).total
    expect(after).toBe(before)
  })
})
