import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/client'
import { documents, jobs } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { replaceChunks } from '../../search/index-document'
import { insertOrganisations, openTestDatabase } from '../../test/test-database'
import { passageState, passagesSavedOf } from './service'

const principal: Principal = { orgId: 'ps-a', userId: null, role: 'member', actorType: 'system' }
const TEXT = 'The Receiving Party shall return or destroy all copies.'

describe('passage state on a database without pgvector', () => {
  let database: Database
  let documentId: string
  beforeAll(async () => {
    database = await openTestDatabase()
    await database.db.execute(sql`alter table doc_chunks drop column embedding`)
    await insertOrganisations(database, principal.orgId)
    // No indexing job: the passages are written directly, as a bulk load does.
    await database.db.execute(sql`alter table documents disable trigger user`)
    documentId = await withTenant(database.db, principal, async (tx) => {
      const [row] = await tx
        .insert(documents)
        .values({ orgId: principal.orgId, title: 'NDA', content: TEXT })
        .returning({ id: documents.id })
      const target = { orgId: principal.orgId, appId: null, documentId: row?.id ?? '' }
      await replaceChunks(tx, target, [{ start: 0, end: TEXT.length, text: TEXT }], null)
      return target.documentId
    })
  }, 30_000)
  afterAll(() => database.close())

  it('says its passages are found by their words only (byMeaning false)', async () => {
    const state = await passageState(database.db, principal, documentId)
    expect(state).toMatchObject({ status: 'indexed', passages: 1, byMeaning: false })
  })
})

describe('passage state while indexing', () => {
  let database: Database
  let documentId: string
  beforeAll(async () => {
    database = await openTestDatabase()
    await insertOrganisations(database, principal.orgId)
    await database.db.execute(sql`alter table documents disable trigger user`)
    documentId = await withTenant(database.db, principal, async (tx) => {
      const [row] = await tx
        .insert(documents)
        .values({ orgId: principal.orgId, title: 'Lease', content: TEXT })
        .returning({ id: documents.id })
      return row?.id ?? ''
    })
  }, 30_000)
  afterAll(() => database.close())

  it('says how many passages of the total the running job has saved, as the job reports it', async () => {
    await withTenant(database.db, principal, (tx) =>
      tx.insert(jobs).values({
        orgId: principal.orgId,
        kind: 'document-passages',
        status: 'running',
        progress: 0.25,
        message: '85 of 340 passages saved',
        subjectId: documentId,
        input: { documentId },
      }),
    )
    const state = await passageState(database.db, principal, documentId)
    expect(state).toMatchObject({ status: 'running', progress: 0.25, saved: 85, total: 340 })
  })

  it('reads no count from a message of another shape', () => {
    expect(passagesSavedOf(null)).toEqual({ saved: null, total: null })
    expect(passagesSavedOf('Waiting for the embedder')).toEqual({ saved: null, total: null })
  })
})
