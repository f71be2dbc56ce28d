import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import {
  concatList,
  hlsPlaylist,
  htmlPolyglot,
  mp3WithScriptTag,
  scriptPolyglot,
  spokenMp3,
} from '../../test/hostile-audio'
import { withTenant } from '../../db/tenant'
import { recordings } from '../../db/schema'
import { pcmToWav, PCM_BYTES_PER_SECOND } from '../../ai/speech/audio'
import { MAX_RECORDING_BYTES, recordingTarget } from './service'
import { SNIFF_AUDIO_BYTES } from '../../media/sniff-audio'
import { TRANSCRIPTION_JOB } from './service'
import { insertJob } from '../../jobs/job-service'
import { createFsBlobStore } from '../../blob/fs-blob-store'

let t: TestApp
let alice: TestMember
let mallory: TestMember
/** The absolute path of mallory's stored recording, which alice must never get transcribed. */
let mallorysFile: string
let mp3: Buffer

beforeAll(async () => {
  t = await buildTestApp({ maxRecordingMinutes: 1 })
  alice = await signedInMember(t, 'Alice Firm')
  mallory = await signedInMember(t, 'Mallory Firm')
  for (const m of [alice, mallory]) {
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/voice/consent`,
      headers: m.headers,
    })
  }
  mp3 = await spokenMp3()
  const res = await upload(mallory, await spokenMp3('Privileged settlement figures.'), 'audio/mpeg')
  expect(res.statusCode).toBe(202)
  const [file] = await filesUnder(`orgs/${mallory.orgId}/voice-recordings`)
  mallorysFile = file ?? ''
  expect(mallorysFile).toMatch(/\.mp3$/)
})
afterAll(() => t.close())

const base = (m: TestMember) => `/api/v1/orgs/${m.orgId}`

function upload(m: TestMember, bytes: Uint8Array, mime: string, name = 'memo') {
  const form = new FormData()
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }), name)
  return t.app.inject({
    method: 'POST',
    url: `${base(m)}/recordings`,
    headers: m.headers,
    payload: form,
  })
}

async function filesUnder(prefix: string): Promise<string[]> {
  const dir = path.join(t.blobDir, prefix)
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.meta.json'))
    .map((e) => path.join(e.parentPath, e.name))
}

/** What alice's organisation holds: stored files and recording rows. */
async function alicesHoldings() {
  return {
    files: await filesUnder(`orgs/${alice.orgId}`),
    rows: await withTenant(t.database.db, alice, (tx) => tx.$count(recordings)),
  }
}

async function expectRefused(res: Awaited<ReturnType<typeof upload>>) {
  expect(res.statusCode).toBe(400)
  expect(res.headers['content-type']).toContain('application/problem+json')
  expect(res.json()).toMatchObject({ code: 'bad_audio' })
}

describe('recordings are stored and served as what they are', () => {
  it('refuses a script that decodes as audio, labelled text/javascript, storing nothing', async () => {
    const before = await alicesHoldings()
    await expectRefused(await upload(alice, scriptPolyglot(mp3), 'text/javascript', 'x.js'))
    expect(await alicesHoldings()).toEqual(before)
  })

  it('refuses an HTML page that loads a script and decodes as audio, labelled text/html', async () => {
    const before = await alicesHoldings()
    const page = htmlPolyglot(`${base(alice)}/recordings/x/audio`, mp3)
    await expectRefused(await upload(alice, page, 'text/html', 'x.html'))
    expect(await alicesHoldings()).toEqual(before)
  })

  it('stores real audio labelled text/html as audio, and serves it inline with nosniff, a sandbox CSP and a safe name', async () => {
    const res = await upload(alice, await mp3WithScriptTag(), 'text/html', 'a".html')
    expect(res.statusCode).toBe(202)
    const { recording } = res.json() as { recording: { id: string; mimeType: string } }
    expect(recording.mimeType).toBe('audio/mpeg')
    const audio = await t.app.inject({
      url: `${base(alice)}/recordings/${recording.id}/audio`,
      headers: alice.headers,
    })
    expect(audio.statusCode).toBe(200)
    expect(audio.headers['content-type']).toBe('audio/mpeg')
    expect(audio.headers['x-content-type-options']).toBe('nosniff')
    expect(audio.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(audio.headers['content-disposition']).toMatch(
      /^inline; filename="recording-[\w-]+\.mp3"; filename\*=UTF-8''recording-[\w-]+\.mp3$/,
    )
    const range = await t.app.inject({
      url: `${base(alice)}/recordings/${recording.id}/audio`,
      headers: { ...alice.headers, range: 'bytes=0-9' },
    })
    expect(range.statusCode).toBe(206)
    expect(range.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(range.headers['x-content-type-options']).toBe('nosniff')
  })
  it('sends a recording stored before the allow-list with a claimed text/html type as a sandboxed attachment', async () => {
    const before = await filesUnder(`orgs/${alice.orgId}`)
    const res = await upload(alice, await spokenMp3(), 'audio/mpeg')
    expect(res.statusCode).toBe(202)
    const { recording } = res.json() as { recording: { id: string } }
    const [file] = (await filesUnder(`orgs/${alice.orgId}`)).filter((f) => !before.includes(f))
    // What the old code stored for the review's polyglot: its bytes and the claimed type.
    await writeFile(file ?? '', htmlPolyglot('/x.js', mp3))
    await writeFile(`${file}.meta.json`, JSON.stringify({ contentType: 'text/html' }))
    const audio = await t.app.inject({
      url: `${base(alice)}/recordings/${recording.id}/audio`,
      headers: alice.headers,
    })
    expect(audio.headers['content-type']).toBe('application/octet-stream')
    expect(audio.headers['content-disposition']).toMatch(
      /^attachment; filename="recording-[\w-]+\.bin"/,
    )
    expect(audio.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
  })
})

describe('the file of each recording', () => {
  it('is its own when one person starts two recordings in the same millisecond', async () => {
    const principal = { ...alice, role: 'owner' as const, actorType: 'user' as const }
    const head = mp3.subarray(0, SNIFF_AUDIO_BYTES)
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 27, 9, 30))
    try {
      const first = await recordingTarget(t.database.db, principal, head)
      const second = await recordingTarget(t.database.db, principal, head)
      expect(first.key).not.toBe(second.key)
      // Both keep the spec's path, userId/timestamp, in the order they started.
      for (const { key } of [first, second])
        expect(key).toMatch(new RegExp(`/voice-recordings/${alice.userId}/\\d{13}\\.mp3$`))
      expect(first.key < second.key).toBe(true)
    } finally {
      clock.mockRestore()
    }
  })
})

describe('ffmpeg reads only the uploaded bytes', () => {
  const cases: [string, () => Buffer][] = [
    ["an HLS playlist naming another organisation's recording", () => hlsPlaylist([mallorysFile])],
    ['an HLS playlist of file:// URLs', () => hlsPlaylist([`file://${mallorysFile}`])],
    ['an ffconcat list', () => concatList([mallorysFile])],
    [
      'a playlist naming one file 2,000 times',
      () => hlsPlaylist(Array.from({ length: 2000 }, () => mallorysFile)),
    ],
  ]
  it.each(cases)('refuses %s with 400 bad_audio, storing nothing', async (_name, make) => {
    const before = await alicesHoldings()
    await expectRefused(await upload(alice, make(), 'audio/mpeg', 'memo.mp3'))
    expect(await alicesHoldings()).toEqual(before)
  })
})

describe('limits of a recording', () => {
  /**
   * A multipart body of one WAV file of `bytes` bytes, produced in 1 MiB chunks with the file's
   * first byte at the start of a chunk: the upload limit then falls on a chunk boundary, where
   * busboy marks the file truncated without handing on another chunk (how the review's chunked
   * 154 MB WAV was stored cut to exactly 100 MiB).
   */
  function bigWavForm(bytes: number) {
    const boundary = 'lexdesk-test-boundary'
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    )
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    async function* body() {
      yield head
      const chunk = Buffer.alloc(1024 * 1024)
      pcmToWav(Buffer.alloc(0)).copy(chunk)
      chunk.writeUInt32LE(bytes - 8, 4)
      chunk.writeUInt32LE(bytes - 44, 40)
      yield Buffer.from(chunk)
      chunk.fill(0, 0, 44)
      for (let left = bytes - chunk.byteLength; left > 0; left -= chunk.byteLength)
        yield left >= chunk.byteLength ? chunk : chunk.subarray(0, left)
      yield tail
    }
    return {
      length: head.byteLength + bytes + tail.byteLength,
      type: `multipart/form-data; boundary=${boundary}`,
      stream: () => Readable.from(body()),
    }
  }

  it.each([
    ['chunked', false],
    ['with a Content-Length', true],
  ])(
    'answers 413 to a recording over 100 MB sent %s, storing nothing',
    async (_name, sized) => {
      const form = bigWavForm(MAX_RECORDING_BYTES + 5 * 1024 * 1024)
      const before = await alicesHoldings()
      const res = await t.app.inject({
        method: 'POST',
        url: `${base(alice)}/recordings`,
        headers: {
          ...alice.headers,
          'content-type': form.type,
          // Without a length, the body arrives in the stream's chunks as they come.
          ...(sized ? { 'content-length': String(form.length) } : {}),
        },
        payload: form.stream(),
      })
      expect(res.statusCode).toBe(413)
      expect(res.json()).toMatchObject({ code: 'file_too_large' })
      expect(await alicesHoldings()).toEqual(before)
    },
    60_000,
  )

  it('refuses a recording longer than MAX_RECORDING_MINUTES before transcribing it', async () => {
    const before = await alicesHoldings()
    const longSilence = pcmToWav(Buffer.alloc(62 * PCM_BYTES_PER_SECOND))
    const res = await upload(alice, longSilence, 'audio/wav', 'long.wav')
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({
      code: 'audio_too_long',
      detail: expect.stringContaining('1 minute'),
    })
    expect(await alicesHoldings()).toEqual(before)
    const short = await upload(
      alice,
      pcmToWav(Buffer.alloc(58 * PCM_BYTES_PER_SECOND)),
      'audio/wav',
    )
    expect(short.statusCode).toBe(202)
  })
  it('fails the transcription of a stored recording longer than MAX_RECORDING_MINUTES without transcribing it', async () => {
    // A recording stored before the limit existed: its file and row, and its queued job.
    const fileKey = `orgs/${alice.orgId}/voice-recordings/${alice.userId}/1.wav`
    const long = pcmToWav(Buffer.alloc(62 * PCM_BYTES_PER_SECOND))
    await createFsBlobStore(t.blobDir).putStream(fileKey, [long], 'audio/wav')
    const principal = { ...alice, role: 'member', actorType: 'user' } as const
    const recordingId = await withTenant(t.database.db, principal, async (tx) => {
      const [row] = await tx
        .insert(recordings)
        .values({
          orgId: alice.orgId,
          title: 'Old memo',
          fileKey,
          mimeType: 'audio/wav',
          sizeBytes: long.byteLength,
          createdBy: alice.userId,
        })
        .returning()
      await insertJob(tx, principal, {
        kind: TRANSCRIPTION_JOB,
        subjectId: row?.id,
        input: { recordingId: row?.id },
      })
      return row?.id ?? ''
    })
    let detail: { status: string; error: string | null; documentId: string | null } | undefined
    for (let i = 0; i < 600; i++) {
      const res = await t.app.inject({
        url: `${base(alice)}/recordings/${recordingId}`,
        headers: alice.headers,
      })
      detail = res.json()
      if (detail?.status !== 'transcribing') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(detail).toMatchObject({ status: 'failed', documentId: null })
    expect(detail?.error).toContain('1 minute')
  })
})
