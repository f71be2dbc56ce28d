/**
 * Issue 29, input hygiene and exact limits of the entities API and CSV import: data nested too
 * deep, a value over the shared data limit, a number past a double's range and invalid UTF-8 are
 * refused by name (a 400 problem, or the line in the import's error), a NUL in a filter is a 400,
 * names and types are cleaned like titles (issue 41), and an upload over the import limit is 413 with nothing stored, whether it comes with a
 * Content-Length or chunked.
 */
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { uploadForm } from '../../test/sample-files'
import { finishedJob } from '../../test/finished-job'
import { MAX_IMPORT_BYTES } from './import-csv'
import { MAX_DATA_BYTES, MAX_DATA_DEPTH } from './schemas'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Hygiene Firm')
})
afterAll(() => t.close())

const url = (m: TestMember, rest = '') => `/api/v1/orgs/${m.orgId}/entities${rest}`

/** JSON text of an object nesting `depth` levels deep: {"a":{"a":…{}…}}. */
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`

async function importBytes(m: TestMember, bytes: Uint8Array) {
  const res = await t.app.inject({
    method: 'POST',
    url: url(m, '/import'),
    headers: m.headers,
    payload: uploadForm(bytes, 'entities.csv'),
  })
  expect(res.statusCode, res.body).toBe(202)
  return finishedJob(t, m, (res.json() as { id: string }).id)
}

const text = (s: string) => new TextEncoder().encode(s)

async function rowsOf(m: TestMember) {
  const result = await t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM entities WHERE org_id = ${m.orgId}`,
  )
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0
}

describe('entity data limits', () => {
  it(`refuses data nested deeper than ${MAX_DATA_DEPTH} levels with a 400 problem, in a create and an update`, async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: url(alice),
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: `{"name":"Deep","data":${nested(5000)}}`,
    })
    expect(created.statusCode, created.body).toBe(400)
    expect(created.headers['content-type']).toMatch(/application\/problem\+json/)
    expect(created.json()).toMatchObject({ code: 'validation_failed' })
    expect(created.json().detail).toMatch(new RegExp(`${MAX_DATA_DEPTH} levels`))
    const ok = await t.app.inject({
      method: 'POST',
      url: url(alice),
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: `{"name":"Just deep enough","data":${nested(MAX_DATA_DEPTH)}}`,
    })
    expect(ok.statusCode, ok.body).toBe(201)
    const patched = await t.app.inject({
      method: 'PATCH',
      url: url(alice, `/${ok.json().id}`),
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: `{"data":${nested(MAX_DATA_DEPTH + 1)}}`,
    })
    expect(patched.statusCode, patched.body).toBe(400)
  })

  it('refuses data over the shared data limit through the API', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: url(alice),
      headers: alice.headers,
      payload: { name: 'Big', data: { text: 'x'.repeat(MAX_DATA_BYTES) } },
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().detail).toMatch(/KB/)
  })

  it('refuses a number past the range of a double instead of storing it as null', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: url(alice),
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: '{"name":"Huge","data":{"amount":1e400,"list":[-1e999]}}',
    })
    expect(created.statusCode, created.body).toBe(400)
    expect(created.headers['content-type']).toMatch(/application\/problem\+json/)
    expect(created.json()).toMatchObject({ code: 'validation_failed' })
    expect(created.json().detail).toMatch(/number/)
    const largest = await t.app.inject({
      method: 'POST',
      url: url(alice),
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: '{"name":"Largest","data":{"amount":1.7976931348623157e308}}',
    })
    expect(largest.statusCode, largest.body).toBe(201)
    expect(largest.json().data).toEqual({ amount: Number.MAX_VALUE })
  })

  it('names the line of a CSV record holding a number past the range of a double, and imports nothing', async () => {
    const m = await signedInMember(t, 'Huge Number Firm')
    const job = await importBytes(m, text('name,data\nfine,\nhuge,"{""amount"":1e400}"\n'))
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/^Line 3: .*number/)
    expect(await rowsOf(m)).toBe(0)
  })

  it('answers a NUL character in the type filter with a 400 problem, in the list and the export', async () => {
    for (const rest of ['?type=a%00b', '/export?type=a%00b']) {
      const res = await t.app.inject({ url: url(alice, rest), headers: alice.headers })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/)
      expect(res.json().detail).toMatch(/NUL/)
    }
  })

  it('names the line of a CSV record whose data nests too deep, and imports nothing', async () => {
    const m = await signedInMember(t, 'Deep CSV Firm')
    const deep = nested(5000).replaceAll('"', '""')
    const job = await importBytes(m, text(`name,data\nfine,\n"too deep","${deep}"\n`))
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(new RegExp(`^Line 3: .*${MAX_DATA_DEPTH} levels`))
    expect(await rowsOf(m)).toBe(0)
  })

  it('names the line of a CSV value over the shared data limit, and imports nothing', async () => {
    const m = await signedInMember(t, 'Big Cell Firm')
    const job = await importBytes(
      m,
      text(`name,data\nfine,\nsmall,\n"big","${'y'.repeat(MAX_DATA_BYTES + 1)}"\n`),
    )
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/^Line 4: .*KB/)
    expect(await rowsOf(m)).toBe(0)
  })

  it('names the line of invalid UTF-8 in a CSV instead of storing U+FFFD, and imports nothing', async () => {
    const m = await signedInMember(t, 'Bad Bytes Firm')
    const head = text('name,type\r\nAcme,client\r\n"Multi\r\nline",client\r\n')
    const bad = new Uint8Array([...text('Caf'), 0xe9, ...text(',client\r\nZed,client\r\n')])
    const job = await importBytes(m, new Uint8Array([...head, ...bad]))
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/^Line 5: .*UTF-8/)
    expect(await rowsOf(m)).toBe(0)
  })
})

/** Names and types as a client or a file may send them: a bidi override, a bell, CR and LF. */
const TROJAN_NAME = 'Acme\u202Efdp.exe\u0007\r\nHoldings'
const TROJAN_TYPE = '\u202Eclient\r\n'

/** Entity `id` of `m` as the API reads it back. */
async function readEntity(m: TestMember, id: string) {
  const res = await t.app.inject({ url: url(m, `?id=${id}`), headers: m.headers })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { items: { name: string; type: string }[] }).items[0]
}

describe('entity names and types', () => {
  it('removes bidi overrides, control characters and line breaks from a name and a type, as from titles, on create and update', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: url(alice),
      headers: alice.headers,
      payload: { name: TROJAN_NAME, type: TROJAN_TYPE },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toMatchObject({ name: 'Acmefdp.exe Holdings', type: 'client' })
    const id = (created.json() as { id: string }).id
    expect(await readEntity(alice, id)).toMatchObject({
      name: 'Acmefdp.exe Holdings',
      type: 'client',
    })
    const patched = await t.app.inject({
      method: 'PATCH',
      url: url(alice, `/${id}`),
      headers: alice.headers,
      payload: { name: 'Beta\u2066 LLP\u0085', type: 'matter\u0000\u202D' },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json()).toMatchObject({ name: 'Beta LLP', type: 'matter' })
  })

  it('refuses a name or a type that the cleaning leaves empty with a 400 problem', async () => {
    for (const payload of [{ name: '\u202E\r\n\u0007' }, { name: 'Fine', type: '\u2066\t' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: url(alice),
        headers: alice.headers,
        payload,
      })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/)
      expect(res.json().detail).toMatch(/Give the entity a (name|type)/)
    }
  })

  it('cleans the names and types of a CSV import as the API does', async () => {
    const m = await signedInMember(t, 'Trojan CSV Firm')
    const quoted = (s: string) => `"${s.replaceAll('"', '""')}"`
    const job = await importBytes(
      m,
      text(`name,type\r\n${quoted(TROJAN_NAME)},${quoted(TROJAN_TYPE)}\r\nPlain,client\r\n`),
    )
    expect(job.status, job.error ?? '').toBe('succeeded')
    const res = await t.app.inject({ url: url(m, '?sort=name:asc'), headers: m.headers })
    expect((res.json() as { items: { name: string; type: string }[] }).items).toEqual([
      expect.objectContaining({ name: 'Acmefdp.exe Holdings', type: 'client' }),
      expect.objectContaining({ name: 'Plain', type: 'client' }),
    ])
  })

  it('names the line of a CSV record whose name is nothing but control characters, and imports nothing', async () => {
    const m = await signedInMember(t, 'Empty Name CSV Firm')
    const job = await importBytes(m, text('name\nfine\n"\u202E\u0007"\n'))
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/^Line 3: Give the entity a name/)
    expect(await rowsOf(m)).toBe(0)
  })
})

/** A multipart body holding a CSV of `bytes` bytes as a stream of 1 MiB chunks, and its type. */
function streamedCsvForm(bytes: number) {
  const boundary = `----lexdesk${crypto.randomUUID()}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const line = '"Client",client,\r\n'
  const chunk = Buffer.from(line.repeat(Math.ceil((1024 * 1024) / line.length)))
  async function* parts() {
    yield head
    yield Buffer.from('name,type,data\r\n')
    let left = bytes - 'name,type,data\r\n'.length
    while (left > 0) {
      const piece = chunk.subarray(0, Math.min(left, chunk.length))
      left -= piece.length
      yield piece
    }
    yield tail
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    length: head.length + bytes + tail.length,
    stream: () => Readable.from(parts()),
  }
}

async function importFiles(m: TestMember) {
  const folder = path.join(t.blobDir, 'orgs', m.orgId, 'imports')
  return readdir(folder).catch(() => [])
}

async function jobsOf(m: TestMember) {
  const res = await t.app.inject({ url: `/api/v1/orgs/${m.orgId}/jobs`, headers: m.headers })
  return (res.json() as { items: unknown[] }).items
}

describe('the import size limit', () => {
  it('answers 413 and stores nothing for a file over the limit, sent with a Content-Length or chunked', async () => {
    const m = await signedInMember(t, 'Oversize Firm')
    const form = streamedCsvForm(MAX_IMPORT_BYTES + 20 * 17)
    for (const withLength of [true, false]) {
      const res = await t.app.inject({
        method: 'POST',
        url: url(m, '/import'),
        headers: {
          ...m.headers,
          'content-type': form.type,
          ...(withLength ? { 'content-length': String(form.length) } : {}),
        },
        payload: form.stream(),
      })
      expect(res.statusCode, `${withLength ? 'with' : 'without'} length: ${res.body}`).toBe(413)
      expect(res.json()).toMatchObject({ code: 'file_too_large' })
    }
    expect(await importFiles(m)).toEqual([])
    expect(await jobsOf(m)).toEqual([])
    expect(await rowsOf(m)).toBe(0)
  }, 120_000)
})
