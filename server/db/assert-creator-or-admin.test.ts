import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './client'
import { withTenant, type Principal } from './tenant'
import { cancelJob, insertJob } from '../jobs/job-service'
import { newOrganisations, openTestDatabase } from '../test/test-database'
import { assertCreatorOrAdmin } from './assert-creator-or-admin'

const refusal = { code: 'not_document_creator', detail: 'Not yours.' } as const

describe('assertCreatorOrAdmin', () => {
  it('admits the creator and refuses another member with the given 403 problem', () => {
    expect(() =>
      assertCreatorOrAdmin({ userId: 'u-1', role: 'member' }, 'u-1', refusal),
    ).not.toThrow()
    expect(() => assertCreatorOrAdmin({ userId: 'u-2', role: 'member' }, 'u-1', refusal)).toThrow(
      expect.objectContaining({ code: 'not_document_creator', status: 403, detail: 'Not yours.' }),
    )
  })

  it('admits admins and owners whoever created the row', () => {
    for (const role of ['admin', 'owner'] as const) {
      expect(() => assertCreatorOrAdmin({ userId: 'u-2', role }, 'u-1', refusal)).not.toThrow()
      expect(() => assertCreatorOrAdmin({ userId: null, role }, null, refusal)).not.toThrow()
    }
  })

  it('never counts a principal without a user as the creator, not even of a row of no creator', () => {
    for (const createdBy of [null, 'u-1', '']) {
      expect(() =>
        assertCreatorOrAdmin({ userId: null, role: 'member' }, createdBy, refusal),
      ).toThrow(expect.objectContaining({ status: 403 }))
    }
  })
})

describe('the creator rule where it is applied', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(() => database.close())

  it('lets no member principal without a user cancel a job nobody is recorded as starting', async () => {
    const [orgId = ''] = await newOrganisations(database, 1)
    const system: Principal = { orgId, userId: null, role: 'member', actorType: 'system' }
    const job = await withTenant(database.db, system, (tx) =>
      insertJob(tx, system, { kind: 'creator-rule', input: {} }),
    )
    await expect(cancelJob(database.db, system, job.id)).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
    })
    const admin: Principal = { ...system, role: 'admin' }
    expect((await cancelJob(database.db, admin, job.id)).status).toBe('cancelled')
  })
})
