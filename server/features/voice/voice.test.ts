import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'
import { AUDIO_FORMATS, encodeAudio, spokenWav, type AudioFormat } from '../../test/test-audio'
import { uploadRecording } from '../../test/voice-member'
import { withTenant } from '../../db/tenant'
import { recordings, recordingSegments, voiceConsents } from '../../db/schema'

let t: TestApp
let alice: TestMember
let mallory: TestMember
let wav: Buffer

beforeAll(async () => {
  t = await buildTestApp()
  // alice has acknowledged the consent notice; every test may record as her.
  alice = await signedInMember(t)
  await acknowledge(alice)
  mallory = await signedInMember(t, 'Other Firm')
  wav = await spokenWav('The lease ends on the last day of June. The tenant must give notice.')
})
afterAll(() => t.close())

const base = (m: TestMember) => `/api/v1/orgs/${m.orgId}`

async function acknowledge(m: TestMember) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${base(m)}/voice/consent`,
    headers: m.headers,
  })
  expect(res.statusCode).toBe(200)
}

const upload = (m: TestMember, bytes: Uint8Array, mime: string) =>
  uploadRecording(t, m, bytes, { mime })

/** Polls the job until it ends; returns its final state. */
async function finished(m: TestMember, jobId: string) {
  for (let i = 0; i < 300; i++) {
    const job = (
      await t.app.inject({ method: 'GET', url: `${base(m)}/jobs/${jobId}`, headers: m.headers })
    ).json() as { status: string; error: string | null }
    if (!['queued', 'running'].includes(job.status)) return job
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('job did not finish')
}

/** The stored objects (without the file store's content-type sidecars). */
async function blobFiles(): Promise<string[]> {
  const entries = await readdir(t.blobDir, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.meta.json'))
    .map((e) => path.join(e.parentPath, e.name))
}

async function recordingCount(m: TestMember): Promise<number> {
  return withTenant(t.database.db, m, (tx) => tx.$count(recordings))
}

describe('voice API', () => {
  it('asks for the consent acknowledgement before the first recording, and records it', async () => {
    const newcomer = await signedInMember(t, 'Consent Firm')
    const before = await t.app.inject({
      method: 'GET',
      url: `${base(newcomer)}/voice/consent`,
      headers: newcomer.headers,
    })
    expect(before.json()).toEqual({ acknowledgedAt: null })
    const refused = await upload(newcomer, wav, 'audio/wav')
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'consent_required' })
    await acknowledge(newcomer)
    await acknowledge(newcomer)
    const after = await t.app.inject({
      method: 'GET',
      url: `${base(newcomer)}/voice/consent`,
      headers: newcomer.headers,
    })
    expect(after.json().acknowledgedAt).toEqual(expect.any(String))
    const rows = await withTenant(t.database.db, newcomer, (tx) => tx.select().from(voiceConsents))
    expect(rows).toHaveLength(1)
  })

  it('stores a recording, transcribes it in a job into a transcript document with timed segments, and summarises it on the server with no further call', async () => {
    // An organisation of its own: the test reads its whole event log and recording list.
    const owner = await signedInMember(t, 'Transcript Firm')
    await acknowledge(owner)
    const filesBefore = await blobFiles()
    const res = await upload(owner, await encodeAudio(wav, 'webm'), 'audio/webm;codecs=opus')
    expect(res.statusCode).toBe(202)
    const { recording, job } = res.json() as {
      recording: { id: string; status: string }
      job: { id: string; kind: string }
    }
    expect(recording.status).toBe('transcribing')
    expect(job.kind).toBe('transcription')
    const added = (await blobFiles()).filter((file) => !filesBefore.includes(file))
    expect(added).toEqual([
      expect.stringMatching(
        new RegExp(`orgs/${owner.orgId}/voice-recordings/${owner.userId}/\\d{13}\\.webm$`),
      ),
    ])
    expect((await finished(owner, job.id)).status).toBe('succeeded')

    const detail = (
      await t.app.inject({
        method: 'GET',
        url: `${base(owner)}/recordings/${recording.id}`,
        headers: owner.headers,
      })
    ).json() as {
      status: string
      documentId: string
      summaryJobId: string | null
      durationSec: number
      transcript: string
      segments: {
        start: number
        end: number
        text: string
        startOffset: number
        endOffset: number
        confidence: number
        lowConfidence: boolean
      }[]
    }
    // The transcription queued the summary itself: the client only reads from here on, as a
    // browser closed after the upload would not even do.
    expect(['summarizing', 'ready']).toContain(detail.status)
    expect(detail.summaryJobId).toEqual(expect.any(String))
    const summaryJob = (await finished(owner, detail.summaryJobId!)) as {
      status: string
      kind?: string
      result?: { analysisId: string } | null
    }
    expect(summaryJob).toMatchObject({ status: 'succeeded', kind: 'analysis' })
    const analyses = await t.app.inject({
      url: `${base(owner)}/documents/${detail.documentId}/analyses`,
      headers: owner.headers,
    })
    expect(analyses.json()).toMatchObject({
      total: 1,
      items: [{ id: summaryJob.result?.analysisId, kind: 'summarize' }],
    })
    expect(analyses.json().items[0].result.summary.sentences.length).toBeGreaterThan(0)
    const ready = await t.app.inject({
      url: `${base(owner)}/recordings/${recording.id}`,
      headers: owner.headers,
    })
    expect(ready.json()).toMatchObject({ status: 'ready', summaryJobId: detail.summaryJobId })
    expect(detail.durationSec).toBeGreaterThan(2)
    expect(detail.segments.length).toBeGreaterThan(0)
    for (const s of detail.segments) {
      expect(detail.transcript.slice(s.startOffset, s.endOffset)).toBe(s.text)
      expect(s.end).toBeGreaterThan(s.start)
      // The engine's confidence is kept per segment, and a low one flagged.
      expect(s.confidence).toBeGreaterThanOrEqual(0)
      expect(s.confidence).toBeLessThanOrEqual(1)
      expect(s.lowConfidence).toBe(s.confidence < 0.6)
    }
    const document = (
      await t.app.inject({
        method: 'GET',
        url: `${base(owner)}/documents/${detail.documentId}`,
        headers: owner.headers,
      })
    ).json() as { documentType: string; content: string }
    expect(document).toMatchObject({ documentType: 'transcript', content: detail.transcript })

    const events = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/events`,
      headers: owner.headers,
    })
    expect(events.json()).toMatchObject({
      items: [
        { kind: 'analysis.finished', meta: { documentId: detail.documentId, kind: 'summarize' } },
        {
          kind: 'recording.transcribed',
          meta: { recordingId: recording.id, documentId: detail.documentId },
        },
        { kind: 'recording.uploaded', meta: { recordingId: recording.id } },
      ],
    })

    const list = await t.app.inject({
      method: 'GET',
      url: `${base(owner)}/recordings`,
      headers: owner.headers,
    })
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: recording.id, status: 'ready' }] })

    const audio = await t.app.inject({
      method: 'GET',
      url: `${base(owner)}/recordings/${recording.id}/audio`,
      headers: { ...owner.headers, range: 'bytes=0-99' },
    })
    expect(audio.statusCode).toBe(206)
    expect(audio.headers['content-type']).toBe('audio/webm')
    expect(audio.rawPayload.byteLength).toBe(100)
    const outside = await t.app.inject({
      method: 'GET',
      url: `${base(owner)}/recordings/${recording.id}/audio`,
      headers: { ...owner.headers, range: 'bytes=999999999-' },
    })
    expect(outside.statusCode).toBe(416)
    expect(outside.headers['content-range']).toMatch(/^bytes \*\/\d+$/)
    expect(outside.json()).toMatchObject({ code: 'range_not_satisfiable' })

    // Another organisation sees none of it.
    for (const url of [
      `${base(mallory)}/recordings/${recording.id}`,
      `${base(mallory)}/recordings/${recording.id}/audio`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: mallory.headers })
      expect(res.statusCode).toBe(404)
    }
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base(mallory)}/recordings/${recording.id}`,
      headers: mallory.headers,
    })
    expect(del.statusCode).toBe(404)
    expect(
      await t.app.inject({
        method: 'GET',
        url: `${base(mallory)}/recordings`,
        headers: mallory.headers,
      }),
    ).toMatchObject({ statusCode: 200 })

    // The transcript is a document like any other: queued for indexing when it was written, and
    // deleted with its recording through the same path, audited and in the event log.
    const passages = await t.app.inject({
      url: `${base(owner)}/documents/${detail.documentId}/passages`,
      headers: owner.headers,
    })
    expect(passages.json().status).toMatch(/^(queued|running|indexed)$/)
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${base(owner)}/recordings/${recording.id}`,
      headers: owner.headers,
    })
    expect(removed.statusCode).toBe(204)
    const gone = await t.app.inject({
      url: `${base(owner)}/documents/${detail.documentId}`,
      headers: owner.headers,
    })
    expect(gone.statusCode).toBe(404)
    const log = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/events`,
      headers: owner.headers,
    })
    expect(log.json().items.slice(0, 2)).toMatchObject([
      { kind: 'recording.deleted', meta: { recordingId: recording.id } },
      { kind: 'document.deleted', meta: { documentId: detail.documentId } },
    ])
  })

  it.each(Object.keys(AUDIO_FORMATS) as AudioFormat[])('accepts %s uploads', async (format) => {
    const res = await upload(alice, await encodeAudio(wav, format), AUDIO_FORMATS[format].mime)
    expect(res.statusCode).toBe(202)
    const { recording, job } = res.json() as { recording: { id: string }; job: { id: string } }
    expect((await finished(alice, job.id)).status).toBe('succeeded')
    const detail = (
      await t.app.inject({
        method: 'GET',
        url: `${base(alice)}/recordings/${recording.id}`,
        headers: alice.headers,
      })
    ).json() as { durationSec: number }
    expect(detail.durationSec).toBeGreaterThan(2)
  })

  it.each([
    ['0-byte', () => new Uint8Array()],
    ['corrupt', async () => (await encodeAudio(wav, 'mp4')).subarray(0, 500)],
    ['non-audio', () => new TextEncoder().encode('%PDF-1.4 not a recording\n'.repeat(100))],
  ] as const)('rejects a %s upload with a 400 problem, storing nothing', async (_name, make) => {
    const files = await blobFiles()
    const rows = await recordingCount(alice)
    const res = await upload(alice, await make(), 'audio/webm')
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toContain('application/problem+json')
    expect(res.json()).toMatchObject({ code: 'bad_audio', detail: expect.stringMatching(/audio/) })
    expect(await blobFiles()).toEqual(files)
    expect(await recordingCount(alice)).toBe(rows)
  })

  it('lets members delete only their own recordings, admins any', async () => {
    const bob = await signedInWithRole(t, alice.orgId, 'member')
    const { recording } = (await upload(alice, wav, 'audio/wav')).json() as {
      recording: { id: string }
    }
    const url = `${base(alice)}/recordings/${recording.id}`
    const refused = await t.app.inject({ method: 'DELETE', url, headers: bob.headers })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'not_recording_creator' })
    const admin = await signedInWithRole(t, alice.orgId, 'admin')
    const files = (await blobFiles()).length
    // A transcription still waiting (for later: no runner here claims it) stops with it.
    const waiting = await t.database.db.execute(sql`
      INSERT INTO jobs (org_id, kind, subject_id, run_after)
      VALUES (${alice.orgId}, 'transcription', ${recording.id}, now() + interval '1 hour')
      RETURNING id`)
    const waitingId = (waiting as unknown as { rows: { id: string }[] }).rows[0]!.id
    const deleted = await t.app.inject({ method: 'DELETE', url, headers: admin.headers })
    expect(deleted.statusCode).toBe(204)
    const stopped = await t.database.db.execute(
      sql`SELECT status FROM jobs WHERE id = ${waitingId}`,
    )
    expect((stopped as unknown as { rows: { status: string }[] }).rows[0]?.status).toBe('cancelled')
    expect((await blobFiles()).length).toBe(files - 1)
    const gone = await t.app.inject({ method: 'GET', url, headers: alice.headers })
    expect(gone.statusCode).toBe(404)
    const events = await t.app.inject({
      url: `${base(alice)}/events?kind=recording.deleted`,
      headers: alice.headers,
    })
    expect(events.json().items).toContainEqual(
      expect.objectContaining({ meta: expect.objectContaining({ recordingId: recording.id }) }),
    )
  })

  it('keeps recordings, segments and consents of another organisation out of reach even with a hand-written WHERE', async () => {
    const { job } = (await upload(alice, wav, 'audio/wav')).json() as { job: { id: string } }
    expect((await finished(alice, job.id)).status).toBe('succeeded')
    const rowsOf = async (result: Promise<unknown>) => ((await result) as { rows: unknown[] }).rows
    const seen = await withTenant(t.database.db, mallory, async (tx) => ({
      recordings: await rowsOf(
        tx.execute(sql`select id from recordings where org_id = ${alice.orgId}`),
      ),
      segments: await rowsOf(
        tx.execute(sql`select id from recording_segments where org_id = ${alice.orgId}`),
      ),
      consents: await rowsOf(
        tx.execute(sql`select id from voice_consents where org_id = ${alice.orgId}`),
      ),
      updated: await tx
        .update(recordings)
        .set({ title: 'stolen' })
        .where(sql`org_id = ${alice.orgId}`)
        .returning(),
    }))
    expect(seen.recordings).toEqual([])
    expect(seen.segments).toEqual([])
    expect(seen.consents).toEqual([])
    expect(seen.updated).toEqual([])
    const segments = await withTenant(t.database.db, alice, (tx) => tx.$count(recordingSegments))
    expect(segments).toBeGreaterThan(0)
    const insert = withTenant(t.database.db, mallory, (tx) =>
      tx.insert(voiceConsents).values({ orgId: alice.orgId, userId: mallory.userId }),
    )
    await expect(insert).rejects.toThrow()
  })

  it('reads text aloud as base64 MP3, cutting text over 4000 characters', async () => {
    const speak = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: `${base(alice)}/speech`,
        headers: alice.headers,
        payload: { text, voice: 'en-us' },
      })
    const short = await speak('Hello.')
    expect(short.statusCode).toBe(200)
    const mp3 = Buffer.from(short.json().audioContent as string, 'base64')
    expect(mp3.byteLength).toBeGreaterThan(500)
    const long = await speak('word '.repeat(1000) + 'extra '.repeat(400))
    const cut = await speak('word '.repeat(1000).slice(0, 4000))
    expect(long.statusCode).toBe(200)
    // The same first 4000 characters give the same audio: the rest was cut.
    expect(long.json().audioContent).toBe(cut.json().audioContent)
  }, 30_000)
})

describe('recordings in apps (decision 8)', () => {
  it('files a recording under an app of the organisation, lists by app, and refuses another organisation’s app', async () => {
    const app = await t.app.inject({
      method: 'POST',
      url: `${base(alice)}/apps`,
      headers: alice.headers,
      payload: { slug: 'litigation' },
    })
    expect(app.statusCode).toBe(201)
    const appId = (app.json() as { id: string }).id
    const inApp = (appIdField: string) =>
      uploadRecording(t, alice, wav, { fields: { appId: appIdField } })
    const res = await inApp(appId)
    expect(res.statusCode).toBe(202)
    expect(res.json().recording.appId).toBe(appId)
    const listed = await t.app.inject({
      method: 'GET',
      url: `${base(alice)}/recordings?appId=${appId}`,
      headers: alice.headers,
    })
    expect(listed.json()).toMatchObject({ total: 1, items: [{ appId }] })

    const files = await blobFiles()
    const otherApp = await t.app.inject({
      method: 'POST',
      url: `${base(mallory)}/apps`,
      headers: mallory.headers,
      payload: { slug: 'theirs' },
    })
    const refused = await inApp((otherApp.json() as { id: string }).id)
    expect(refused.statusCode).toBe(404)
    expect(refused.json()).toMatchObject({ code: 'app_not_found' })
    expect(await blobFiles()).toEqual(files)
  })
})
