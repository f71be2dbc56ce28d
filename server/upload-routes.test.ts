import { readdir, readFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from './test/test-app'
import { MAX_UPLOAD_BYTES } from './features/documents/schemas'
import { MAX_RECORDING_BYTES } from './features/voice/service'
import { MAX_IMPORT_BYTES } from './features/entities/import-csv'
import type { BlobStore } from './blob/blob-store'
import { pcmToWav } from './ai/speech/audio'
import { makePdf, paddedPdf, SAMPLE_CONTRACT, uploadForm } from './test/sample-files'

let t: TestApp
let alice: TestMember
/** Bytes the blob store has taken from upload sources so far (putStream's pulls). */
let bytesIntoStore = 0

/** The store, counting every chunk putStream pulls from its source. */
function countingStore(blobs: BlobStore): BlobStore {
  async function* counted(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
    for await (const chunk of source) {
      bytesIntoStore += chunk.length
      yield chunk
    }
  }
  return Object.assign(Object.create(blobs) as BlobStore, {
    putStream: (key: string, source: AsyncIterable<Uint8Array>, type: string) =>
      blobs.putStream(key, counted(source), type),
  })
}

beforeAll(async () => {
  t = await buildTestApp({ wrapBlobs: countingStore })
  alice = await signedInMember(t, 'One Upload Path Firm')
})
afterAll(() => t.close())

const storedFiles = async () =>
  (await readdir(t.blobDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
    .length

/** The three upload routes of the API and the largest file each accepts. */
const uploadRoutes = () => [
  { route: `/api/v1/orgs/${alice.orgId}/documents`, maxBytes: MAX_UPLOAD_BYTES },
  { route: `/api/v1/orgs/${alice.orgId}/recordings`, maxBytes: MAX_RECORDING_BYTES },
  { route: `/api/v1/orgs/${alice.orgId}/entities/import`, maxBytes: MAX_IMPORT_BYTES },
]

/**
 * A multipart body whose `file` part holds `bytes` bytes (`first`, then `fill` bytes), made as it
 * is sent in `pieceBytes` pieces (1 MiB by default), with `after` text fields following the file;
 * `beforeEnd` runs before the body's last part.
 */
function streamedForm(
  bytes: number,
  options: {
    first?: Buffer
    fill?: string | number
    pieceBytes?: number
    after?: Record<string, string>
    beforeEnd?: () => void
  } = {},
) {
  const boundary = `lexdesk-${crypto.randomUUID()}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const fields = Object.entries(options.after ?? {}).map(
    ([name, value]) =>
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`,
  )
  const tail = Buffer.from(`${fields.join('')}\r\n--${boundary}--\r\n`)
  const first = options.first ?? Buffer.alloc(0)
  const piece = Buffer.alloc(options.pieceBytes ?? 1024 * 1024, options.fill ?? 0)
  async function* parts() {
    yield head
    yield first
    for (let left = bytes - first.length; left > 0; left -= piece.length)
      yield piece.subarray(0, left)
    options.beforeEnd?.()
    yield tail
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    length: head.length + bytes + tail.length,
    stream: () => Readable.from(parts()),
  }
}

/** Bytes this process (every thread of it) has written to files, pipes and sockets so far. */
async function bytesWritten(): Promise<number> {
  const io = await readFile('/proc/self/io', 'utf8')
  return Number(/^wchar: (\d+)$/m.exec(io)![1])
}

/**
 * Sends `bytes` to `route` as a file refused only after it has arrived (a bad field follows it);
 * resolves to the answer and the bytes the store had taken before the body's end.
 */
async function uploadRefusedAfterTheFile(
  route: string,
  bytes: number,
  options: { first?: Buffer; fill?: string; after: Record<string, string> },
) {
  let storedBeforeEnd = -1
  const start = bytesIntoStore
  const form = streamedForm(bytes, {
    ...options,
    pieceBytes: 64 * 1024,
    beforeEnd: () => (storedBeforeEnd = bytesIntoStore - start),
  })
  const res = await t.app.inject({
    method: 'POST',
    url: route,
    headers: { ...alice.headers, 'content-type': form.type },
    payload: form.stream(),
  })
  return { res, storedBeforeEnd }
}

describe('every upload route reads its body the same way', () => {
  it('refuses a file one byte over each route limit with the same 413 problem, storing nothing', async () => {
    const before = await storedFiles()
    const problems = []
    for (const { route, maxBytes } of uploadRoutes()) {
      const form = streamedForm(maxBytes + 1)
      const res = await t.app.inject({
        method: 'POST',
        url: route,
        headers: { ...alice.headers, 'content-type': form.type },
        payload: form.stream(),
      })
      expect(res.statusCode, `${route}: ${res.body}`).toBe(413)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      const problem = res.json<Record<string, unknown>>()
      expect(problem.detail).toBe(`The file is larger than ${maxBytes / 1024 / 1024} MB.`)
      expect(problem.instance).toBe(route)
      // The same problem but for its limit and the route it answers.
      problems.push({ ...problem, detail: undefined, instance: undefined })
    }
    expect(problems[0]).toMatchObject({ status: 413, code: 'file_too_large' })
    expect(problems[1]).toEqual(problems[0])
    expect(problems[2]).toEqual(problems[0])
    expect(await storedFiles()).toBe(before)
  }, 120_000)

  it('refuses a second file with the same 400 bad_upload problem on every route, storing nothing', async () => {
    const before = await storedFiles()
    const problems = []
    for (const { route } of uploadRoutes()) {
      const form = new FormData()
      form.append('file', new Blob(['name\nAcme\n']), 'one.csv')
      form.append('file', new Blob(['name\nBeta\n']), 'two.csv')
      const res = await t.app.inject({
        method: 'POST',
        url: route,
        headers: alice.headers,
        payload: form,
      })
      expect(res.statusCode, `${route}: ${res.body}`).toBe(400)
      problems.push(res.json<Record<string, unknown>>())
    }
    expect(problems[0]).toMatchObject({ code: 'bad_upload' })
    expect(problems[1]).toMatchObject({ code: 'bad_upload' })
    expect(problems[2]).toMatchObject({ code: 'bad_upload' })
    expect(await storedFiles()).toBe(before)
  })

  it('streams a document into the store while its body arrives, and keeps nothing when it is refused after', async () => {
    const before = await storedFiles()
    const bytes = 8 * 1024 * 1024
    const { res, storedBeforeEnd } = await uploadRefusedAfterTheFile(
      `/api/v1/orgs/${alice.orgId}/documents`,
      bytes,
      { fill: 'Clause one binds the parties. ', after: { documentType: '!not a type' } },
    )
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400)
    expect(res.json()).toMatchObject({ code: 'bad_document_type' })
    // Most of the file had reached the store before the last part of the body was sent.
    expect(storedBeforeEnd).toBeGreaterThan(bytes / 2)
    expect(await storedFiles()).toBe(before)
  }, 60_000)

  it('writes an uploaded file once, into the store, whose file its checks read', async () => {
    // Large in bytes, small in text, so that the document's row adds little to what is written.
    const pdf = paddedPdf(await makePdf(SAMPLE_CONTRACT), 16 * 1024 * 1024)
    const before = await bytesWritten()
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents`,
      headers: alice.headers,
      payload: uploadForm(pdf, 'padded.pdf'),
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201)
    expect(res.json().content).toContain('MASTER SERVICES AGREEMENT')
    const written = (await bytesWritten()) - before
    expect(written).toBeGreaterThanOrEqual(pdf.length)
    // A second copy would write the file twice.
    expect(written).toBeLessThan(1.5 * pdf.length)
  }, 60_000)

  it('streams a recording into the store while its body arrives, and keeps nothing when it is refused after', async () => {
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/voice/consent`,
      headers: alice.headers,
    })
    const before = await storedFiles()
    const bytes = 8 * 1024 * 1024
    // A WAV header announcing the silence that follows it.
    const wav = pcmToWav(Buffer.alloc(0))
    wav.writeUInt32LE(bytes - 8, 4)
    wav.writeUInt32LE(bytes - wav.length, 40)
    const { res, storedBeforeEnd } = await uploadRefusedAfterTheFile(
      `/api/v1/orgs/${alice.orgId}/recordings`,
      bytes,
      { first: wav, after: { appId: 'not-an-id' } },
    )
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400)
    expect(res.json()).toMatchObject({ code: 'validation_failed' })
    expect(storedBeforeEnd).toBeGreaterThan(bytes / 2)
    expect(await storedFiles()).toBe(before)
  }, 60_000)
})
