/**
 * A CSV import started by an app-bound credential (a tenant token or an API key bound to app A,
 * decision 0048) writes into app A only: naming app A imports there; naming another app is 404
 * `app_not_found` and naming none (organisation-wide) 403 `outside_app_scope`, as the other
 * app-scoped writes answer, both before the file is stored or a job queued. Below the route, the
 * import job itself runs under the credential's app clause, so RLS refuses a job whose input
 * names another app.
 */
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, TEST_ORIGIN } from '../../test/test-app'
import { uploadForm } from '../../test/sample-files'
import { finishedJob } from '../../test/finished-job'
import { mintToken } from '../../test/mint-token'
import { appOf } from '../../test/app-of'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import { orgBlobKey } from '../../blob/blob-keys'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { entities, jobs } from '../../db/schema'
import { insertJob } from '../../jobs/job-service'
import type { AppServices } from '../../services'
import { IMPORT_JOB_KIND, startImport } from './import-csv'

const t = await buildTestApp()
afterAll(() => t.close())

const owner = await signedInMember(t, 'App-bound Import Firm')
const appA = await appOf(t, owner, 'import-a')
const appB = await appOf(t, owner, 'import-b')
const adminScopes = 'read write admin'
const { token } = await mintToken(t, owner, { app_id: appA, scope: adminScopes })
const keyRes = await t.app.inject({
  method: 'POST',
  url: `/api/v1/orgs/${owner.orgId}/api-keys`,
  headers: owner.headers,
  payload: { name: 'App A importer', scopes: 'read,write,admin', appId: appA },
})
expect(keyRes.statusCode, keyRes.body).toBe(201)
const { key } = keyRes.json() as { key: string }

/** The app of every entity named `name` in the organisation (read organisation-wide). */
const appsOfRowsNamed = (name: string) =>
  withTenant(t.database.db, { orgId: owner.orgId }, (tx) =>
    tx.select({ appId: entities.appId }).from(entities).where(eq(entities.name, name)),
  )

/** The organisation's entity-import jobs, counted organisation-wide. */
const importJobCount = async () =>
  (
    await withTenant(t.database.db, { orgId: owner.orgId }, (tx) =>
      tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.orgId, owner.orgId), eq(jobs.kind, IMPORT_JOB_KIND))),
    )
  ).length

describe.each([
  ['a tenant token', `Bearer ${token}`],
  ['an API key', `Bearer ${key}`],
])('an entity import by %s bound to app A', (_, authorization) => {
  /** Imports one row named `name`, with `query` (an appId or none), as the credential. */
  const importAs = (query: string, name: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/entities/import${query}`,
      headers: { authorization, origin: TEST_ORIGIN },
      payload: uploadForm(new TextEncoder().encode(`name\n${name}\n`), 'entities.csv'),
    })

  it('lands in app A when it names app A', async () => {
    const name = `In A ${randomUUID()}`
    const started = await importAs(`?appId=${appA}`, name)
    expect(started.statusCode, started.body).toBe(202)
    expect(await finishedJob(t, owner, started.json().id)).toMatchObject({
      status: 'succeeded',
      result: { imported: 1 },
    })
    expect(await appsOfRowsNamed(name)).toEqual([{ appId: appA }])
  })

  it('is refused with 404 app_not_found when it names another app, queueing nothing', async () => {
    const name = `Into B ${randomUUID()}`
    const before = await importJobCount()
    const res = await importAs(`?appId=${appB}`, name)
    expect(res.statusCode, res.body).toBe(404)
    expect(res.json()).toMatchObject({ code: 'app_not_found' })
    expect(await importJobCount()).toBe(before)
    expect(await appsOfRowsNamed(name)).toEqual([])
  })

  it('is refused with 403 outside_app_scope when it names no app (organisation-wide), queueing nothing', async () => {
    const name = `Org-wide ${randomUUID()}`
    const before = await importJobCount()
    const res = await importAs('', name)
    expect(res.statusCode, res.body).toBe(403)
    expect(res.json()).toMatchObject({ code: 'outside_app_scope' })
    expect(await importJobCount()).toBe(before)
    expect(await appsOfRowsNamed(name)).toEqual([])
  })
})

describe('an entity import job queued by a credential of app A', () => {
  it('is refused by RLS when its input names another app: fails outside_app_scope, writes nothing', async () => {
    const name = `Job into B ${randomUUID()}`
    const csv = new TextEncoder().encode(`name\n${name}\n`)
    const blobs = createFsBlobStore(t.blobDir)
    const blobKey = orgBlobKey(owner.orgId, 'imports', `${randomUUID()}.csv`)
    await blobs.putStream(blobKey, [csv], 'text/csv')
    const principal: Principal = {
      orgId: owner.orgId,
      userId: owner.userId,
      role: 'admin',
      actorType: 'token',
      appId: appA,
    }
    // Queued below the route (which refuses it), into the app's own runner: only the job's app
    // clause stands in the way.
    const jobsService = {
      enqueue: (tx: Tx, p: Principal, kind: string, input: unknown, o: { subjectId?: string }) =>
        insertJob(tx, p, { kind, input, subjectId: o.subjectId }),
    } as unknown as AppServices['jobs']
    const job = await startImport({ db: t.database.db, blobs, jobs: jobsService }, principal, {
      blobKey,
      fileName: 'entities.csv',
      size: csv.length,
      appId: appB,
    })
    expect(await finishedJob(t, owner, job.id)).toMatchObject({
      status: 'failed',
      errorCode: 'outside_app_scope',
    })
    expect(await appsOfRowsNamed(name)).toEqual([])
  })
})
