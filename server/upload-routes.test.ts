import { readdir } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from './test/test-app'
import { MAX_UPLOAD_BYTES } from './features/documents/schemas'
import { MAX_RECORDING_BYTES } from './features/voice/service'
import { MAX_IMPORT_BYTES } from './features/entities/import-csv'

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp()
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

/** A multipart body whose `file` part holds `bytes` zero bytes, made as it is sent (1 MiB pieces). */
function streamedForm(bytes: number) {
  const boundary = `lexdesk-${crypto.randomUUID()}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const piece = Buffer.alloc(1024 * 1024)
  async function* parts() {
    yield head
    for (let left = bytes; left > 0; left -= piece.length) yield piece.subarray(0, left)
    yield tail
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    length: head.length + bytes + tail.length,
    stream: () => Readable.from(parts()),
  }
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
})
