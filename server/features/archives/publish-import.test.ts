/**
 * Publishing an import into an existing organisation (decision 0080), run on PGlite and by
 * `npm run test:server` on PostgreSQL, where the app logs in as a least-privileged role: the
 * import through the app moves the staged rows into the target, and the database function doing
 * that cross-tenant move refuses any organisation that is not a staging one made for that target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { finishedOrgJob, succeededExport } from '../../test/organisation-jobs'
import { uploadForm } from '../../test/sample-files'
import { entities, organization } from '../../db/schema'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const orgUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}`

const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows

/** Entities of `orgId` by name, read as the superuser. */
const entityNames = async (orgId: string) =>
  (await t.database.db.select().from(entities).where(eq(entities.orgId, orgId)))
    .map((e) => e.name)
    .sort()

/** Creates an entity `name` in `m`'s organisation through the API. */
async function addEntity(m: TestMember, name: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/entities`,
    headers: m.headers,
    payload: { name, type: 'client', data: {} },
  })
  expect(res.statusCode, res.body).toBe(201)
}

/** Calls publish_import(staging, target) as `role`; resolves to its result or PostgreSQL's error. */
async function publishAs(role: string, staging: string, target: string) {
  try {
    return await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('role', ${role}, true)`)
      const rows = (await tx.execute(
        sql`SELECT publish_import(${staging}, ${target}) AS moved`,
      )) as unknown as { rows: { moved: Record<string, number> }[] }
      return rows.rows[0]!.moved
    })
  } catch (error) {
    return String((error as { cause?: Error }).cause?.message ?? error)
  }
}

/** A staging organisation marked as an import into `intoOrgId`, holding one entity. */
async function stagingFor(intoOrgId: string) {
  const id = crypto.randomUUID()
  await t.database.db.insert(organization).values({
    id,
    name: `Import ${id}`,
    slug: `import-${id}`,
    metadata: JSON.stringify({ importJobId: crypto.randomUUID(), intoOrgId }),
  })
  await t.database.db.insert(entities).values({ orgId: id, type: 'client', name: 'Staged' })
  return id
}

describe('publishing an import into an existing organisation', () => {
  it('imports an archive into an existing organisation through the app, counters and buckets included', async () => {
    const source = await signedInMember(t, 'Publish Source')
    const target = await signedInMember(t, 'Publish Target')
    await addEntity(source, 'Client A')
    await addEntity(source, 'Client B')
    await addEntity(target, 'Existing Client')
    const bucket = await t.app.inject({
      method: 'POST',
      url: `${orgUrl(source)}/storage/buckets`,
      headers: source.headers,
      payload: { name: 'files' },
    })
    expect(bucket.statusCode, bucket.body).toBe(201)
    const object = await t.app.inject({
      method: 'POST',
      url: `${orgUrl(source)}/storage/buckets/${bucket.json().id}/objects`,
      headers: source.headers,
      payload: uploadForm(new TextEncoder().encode('notes'), 'notes.txt'),
    })
    expect(object.statusCode, object.body).toBe(201)
    const zip = (await succeededExport(t, source)).file.rawPayload

    const form = new FormData()
    form.append('target_org_id', target.orgId)
    form.append('zip_file', new Blob([new Uint8Array(zip)]), 'org.zip')
    const job = await finishedOrgJob(t, target, 'import', form)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({
      orgId: target.orgId,
      counts: { entities: 2, storage_buckets: 1, storage_objects: 1 },
    })
    expect(await entityNames(target.orgId)).toEqual(['Client A', 'Client B', 'Existing Client'])
    const [counted] = await rowsOf<{ n: number }>(
      sql`SELECT sum(entities)::int AS n FROM entity_counts WHERE org_id = ${target.orgId}`,
    )
    expect(counted!.n).toBe(3)
    const listed = await t.app.inject({
      url: `${orgUrl(target)}/entities?limit=10`,
      headers: target.headers,
    })
    expect(
      listed
        .json()
        .items.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['Client A', 'Client B', 'Existing Client'])
    expect(
      await rowsOf(sql`SELECT id FROM organization WHERE metadata LIKE '%importJobId%'`),
    ).toEqual([])
  })

  it("refuses to move a firm's rows, or a staging organisation into another target, and only the job runner's role may call it", async () => {
    const firm = await signedInMember(t, 'Publish Firm')
    const target = await signedInMember(t, 'Publish Into')
    const other = await signedInMember(t, 'Publish Other')
    await addEntity(firm, 'Firm Client')
    const staging = await stagingFor(target.orgId)
    const refused = /not the staging organisation of an import/

    expect(await publishAs('lexdesk_worker', firm.orgId, target.orgId)).toMatch(refused)
    // Marked like a staging organisation (metadata is the application's to write), a firm
    // with members is still refused.
    await t.database.db
      .update(organization)
      .set({
        metadata: JSON.stringify({ importJobId: crypto.randomUUID(), intoOrgId: target.orgId }),
      })
      .where(eq(organization.id, firm.orgId))
    expect(await publishAs('lexdesk_worker', firm.orgId, target.orgId)).toMatch(refused)
    expect(await publishAs('lexdesk_worker', staging, other.orgId)).toMatch(refused)
    expect(await publishAs('lexdesk_worker', staging, staging)).toMatch(refused)
    expect(await publishAs('lexdesk_app', staging, target.orgId)).toMatch(/permission denied/)
    expect(await entityNames(firm.orgId)).toEqual(['Firm Client'])
    expect(await entityNames(other.orgId)).toEqual([])
    expect(await entityNames(target.orgId)).toEqual([])

    expect(await publishAs('lexdesk_worker', staging, target.orgId)).toMatchObject({
      entities: 1,
      documents: 0,
    })
    expect(await entityNames(target.orgId)).toEqual(['Staged'])
    expect(await entityNames(staging)).toEqual([])
  })
})
