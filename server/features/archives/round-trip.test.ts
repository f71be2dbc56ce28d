/**
 * The issue 27 round trip: export(A) → import as B → export(B) holds the same entries as
 * export(A), compared entry by entry, except ids, times and the organisation's name: every
 * table's rows (as multisets, with ids and times left out, and who made them: an import names
 * them as imported, decision 0103) and every stored file's bytes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp } from '../../test/test-app'
import { seedOrganisation } from '../../test/seed-organisation'
import { finishedJob } from '../../test/finished-job'
import { ndjson } from '../../test/read-zip'
import {
  expectSameOrganisation,
  exportOf,
  filesOf,
  manifestOf,
} from '../../test/archive-comparison'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const url = (orgId: string, rest: string) => `/api/v1/orgs/${orgId}${rest}`

/** What the import and B's own export add to B's logs, which A's export cannot hold. */
const importTrace = (row: string) =>
  row.includes('"org.imported"') || row.includes('"meta":{"kind":"tenant-export"}')

it('export(A) → import as B → export(B) equals export(A) but for ids, times and the name', async () => {
  const owner = await signedInMember(t, 'Round Trip A')
  await seedOrganisation(t, owner)

  const a = await exportOf(t, owner, owner.orgId)
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
  const b = await exportOf(t, owner, (job.result as { orgId: string }).orgId)

  for (const table of ['documents', 'analyses', 'doc_chunks', 'entities', 'storage_objects'])
    expect(ndjson(a.entries.get(`tables/${table}.ndjson`)).length, table).toBeGreaterThan(0)
  // An uploaded archive's people are not this server's to match: B names them as imported.
  expectSameOrganisation(a.entries, b.entries, importTrace, 'imported')
  const audit = ndjson(b.entries.get('tables/audit_logs.ndjson'))
  expect(audit.filter((r) => r.actor_type !== 'imported').map((r) => r.action)).toEqual(
    expect.arrayContaining(['org.imported']),
  )
  expect(audit.filter((r) => r.actor_type === 'imported').length).toBeGreaterThan(0)
  expect(filesOf(a.entries).length).toBeGreaterThanOrEqual(2)
  expect(manifestOf(b.entries).source.name).toBe('Round Trip B')
})
