/**
 * The issue 27 round trip: export(A) → import as B → export(B) holds the same entries as
 * export(A), compared entry by entry, except ids, times and the organisation's name: every
 * table's rows (as multisets, with ids and times left out) and every stored file's bytes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { uploadDocument } from '../../test/document-uploads'
import { SAMPLE_CONTRACT, uploadForm } from '../../test/sample-files'
import { finishedJob } from '../../test/finished-job'
import { ndjson, readZip } from '../../test/read-zip'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const url = (orgId: string, rest: string) => `/api/v1/orgs/${orgId}${rest}`

async function exportOf(m: TestMember, orgId: string) {
  const started = await t.app.inject({
    method: 'POST',
    url: url(orgId, '/export'),
    headers: m.headers,
    payload: { includeEmbeddings: true },
  })
  expect(started.statusCode, started.body).toBe(202)
  const job = await finishedJob(t, { ...m, orgId }, started.json().id)
  expect(job.status, job.error ?? '').toBe('succeeded')
  const file = await t.app.inject({
    url: url(orgId, `/exports/${started.json().id}/file`),
    headers: m.headers,
  })
  return { bytes: file.rawPayload, entries: await readZip(file.rawPayload) }
}

/**
 * A row without what an import may change: ids, references, times and the file's entry name,
 * and the ids inside its JSON values (an import remaps them to the new rows, decision 0071).
 */
function comparable(row: Record<string, unknown>): string {
  const kept = Object.entries(row).filter(
    ([k]) => k !== 'id' && k !== 'file' && !k.endsWith('_id') && !k.endsWith('_at'),
  )
  return JSON.stringify(Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)))).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    '<id>',
  )
}

/** What the import and B's own export add to B's logs, which A's export cannot hold. */
const importTrace = (row: string) =>
  row.includes('"org.imported"') || row.includes('"meta":{"kind":"tenant-export"}')

/** `rows` without one occurrence of each of `minus`. */
function without(rows: string[], minus: string[]): string[] {
  const left = [...rows]
  for (const row of minus) {
    const at = left.indexOf(row)
    if (at >= 0) left.splice(at, 1)
  }
  return left
}

it('export(A) → import as B → export(B) equals export(A) but for ids, times and the name', async () => {
  const owner = await signedInMember(t, 'Round Trip A')
  const doc = await uploadDocument(t, owner, new TextEncoder().encode(SAMPLE_CONTRACT), 'nda.txt')
  expect(doc.statusCode, doc.body).toBe(201)
  const docId = doc.json().id as string
  const analysis = await t.app.inject({
    method: 'POST',
    url: url(owner.orgId, `/documents/${docId}/analyses`),
    headers: owner.headers,
    payload: { kind: 'risks' },
  })
  if (analysis.statusCode === 202) await finishedJob(t, owner, analysis.json().id)
  await t.app.inject({
    method: 'POST',
    url: url(owner.orgId, '/entities'),
    headers: owner.headers,
    payload: { name: 'Client A', type: 'client', data: { tier: 'gold' } },
  })
  const bucket = await t.app.inject({
    method: 'POST',
    url: url(owner.orgId, '/storage/buckets'),
    headers: owner.headers,
    payload: { name: 'papers' },
  })
  await t.app.inject({
    method: 'POST',
    url: url(owner.orgId, `/storage/buckets/${bucket.json().id}/objects`),
    headers: owner.headers,
    payload: uploadForm(new TextEncoder().encode('minutes'), 'minutes.txt'),
  })

  const a = await exportOf(owner, owner.orgId)
  const form = new FormData()
  form.append('create_org_if_missing', 'true')
  form.append('org_name', 'Round Trip B')
  form.append('zip_file', new Blob([a.bytes as Uint8Array<ArrayBuffer>]), 'a.zip')
  const started = await t.app.inject({
    method: 'POST',
    url: url(owner.orgId, '/import'),
    headers: owner.headers,
    payload: form,
  })
  expect(started.statusCode, started.body).toBe(202)
  const job = await finishedJob(t, owner, started.json().id)
  expect(job.status, job.error ?? '').toBe('succeeded')
  const b = await exportOf(owner, (job.result as { orgId: string }).orgId)

  for (const table of ['documents', 'analyses', 'doc_chunks', 'entities', 'storage_objects'])
    expect(ndjson(a.entries.get(`tables/${table}.ndjson`)).length, table).toBeGreaterThan(0)
  const names = (m: Map<string, Buffer>) => [...m.keys()].filter((n) => n.startsWith('tables/'))
  expect(names(b.entries).sort()).toEqual(names(a.entries).sort())
  for (const name of names(a.entries)) {
    const rows = (m: Map<string, Buffer>) => ndjson(m.get(name)).map(comparable).sort()
    // Every row of A is in B; B holds nothing more than the traces of the import and its export.
    expect(without(rows(a.entries), rows(b.entries)), name).toEqual([])
    expect(
      without(rows(b.entries), rows(a.entries)).filter((r) => !importTrace(r)),
      name,
    ).toEqual([])
  }
  const files = (m: Map<string, Buffer>) =>
    [...m.entries()]
      .filter(([n]) => n.startsWith('files/'))
      .map(([n, bytes]) => `${n.split('/')[1]}:${bytes.toString('base64')}`)
      .sort()
  expect(files(b.entries)).toEqual(files(a.entries))
  expect(files(a.entries).length).toBeGreaterThanOrEqual(2)
  const manifest = (m: Map<string, Buffer>) => JSON.parse(m.get('manifest.json')!.toString())
  const counts = (m: Map<string, Buffer>) => {
    const { audit_logs: _a, events: _e, ...rest } = manifest(m).counts
    return rest
  }
  expect(counts(b.entries)).toEqual(counts(a.entries))
  expect(manifest(b.entries).source.name).toBe('Round Trip B')
})
