/**
 * Legal holds end to end (issue 45, decision 0147): placed, listed and released by admins and
 * owners, audited, confined to their organisation by RLS; and, while one stands, every deletion
 * path it reaches refuses with 409 `legal_hold` and leaves the row in place. The walk reads the
 * deleting operations from the OpenAPI document, so a new one fails here until it is classified.
 */
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  apps,
  auditLogs,
  conversations,
  documents,
  legalHolds,
  member,
  organization,
  recordings,
  storageBuckets,
  storageObjects,
} from '../../db/schema'
import { withTenant, type Tx } from '../../db/tenant'
import {
  holdReaches,
  isLegalHoldViolation,
  LEGAL_HOLD_DETAIL,
  LEGAL_HOLD_SQLSTATE,
  type HoldableItem,
  type HoldInForce,
} from '../../holds/legal-hold'
import { membershipIdOf } from '../../test/membership-id'
import { pasteDocument } from '../../test/pasted-document'
import { addIndexedDocument } from '../../test/indexed-document'
import {
  principalOf,
  signedInMember,
  signedInWithRole,
  testAppForFile,
  type TestMember,
} from '../../test/test-app'

const t = await testAppForFile()

const holdsUrl = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/legal-holds`
const REASON = 'Smith v. Jones, preservation order of 3 March'

async function placeHold(by: TestMember, targetKind: string, targetId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: holdsUrl(by),
    headers: by.headers,
    payload: { targetKind, targetId, reason: REASON },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; releasedAt: string | null }
}

async function release(by: TestMember, holdId: string) {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `${holdsUrl(by)}/${holdId}`,
    headers: by.headers,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { id: string; releasedAt: string | null; releasedBy: string | null }
}

async function createApp(by: TestMember) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${by.orgId}/apps`,
    headers: by.headers,
    payload: { slug: `matter-${randomUUID().slice(0, 8)}` },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

/** A recording row of `by` (no audio needed: deletion reads only the row and its key). */
async function insertRecording(by: TestMember, appId: string | null = null) {
  return withTenant(t.database.db, principalOf(by), async (tx) => {
    const id = randomUUID()
    await tx.insert(recordings).values({
      id,
      orgId: by.orgId,
      appId,
      title: 'Client call',
      fileKey: `orgs/${by.orgId}/recordings/${id}`,
      mimeType: 'audio/wav',
      sizeBytes: 0,
      status: 'failed',
      createdBy: by.userId,
    })
    return id
  })
}

/** A bucket with one object of `by`'s; answers both ids. */
async function insertObject(by: TestMember) {
  return withTenant(t.database.db, principalOf(by), async (tx) => {
    const bucketId = randomUUID()
    const objectId = randomUUID()
    await tx.insert(storageBuckets).values({
      id: bucketId,
      orgId: by.orgId,
      name: `b-${bucketId.slice(0, 8)}`,
      createdBy: by.userId,
    })
    await tx.insert(storageObjects).values({
      id: objectId,
      orgId: by.orgId,
      bucketId,
      name: 'exhibit-a.txt',
      fileKey: `orgs/${by.orgId}/buckets/${bucketId}/${objectId}`,
      sizeBytes: 0,
      contentType: 'text/plain',
      createdBy: by.userId,
    })
    return { bucketId, objectId }
  })
}

const exists = async (
  table: typeof documents | typeof recordings | typeof storageObjects,
  id: string,
) => (await t.database.db.select({ id: table.id }).from(table).where(eq(table.id, id))).length === 1

function expectLegalHold(res: {
  statusCode: number
  headers: Record<string, unknown>
  body: string
}) {
  expect(res.statusCode, res.body).toBe(409)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(JSON.parse(res.body)).toMatchObject({ code: 'legal_hold', detail: LEGAL_HOLD_DETAIL })
  expect(res.body).not.toContain('Smith')
}

describe('placing, listing and releasing holds', () => {
  it('places a hold, lists it, releases it once and audits both', async () => {
    const owner = await signedInMember(t, 'Hold Firm')
    const documentId = await pasteDocument(t, owner, 'Lease', 'The tenant shall pay rent.')
    const hold = await placeHold(owner, 'document', documentId)
    expect(hold).toMatchObject({ targetKind: 'document', targetId: documentId, reason: REASON })
    expect(hold.releasedAt).toBeNull()

    const list = await t.app.inject({
      url: `${holdsUrl(owner)}?inForce=true`,
      headers: owner.headers,
    })
    expect(list.json().items).toEqual([expect.objectContaining({ id: hold.id })])

    const released = await release(owner, hold.id)
    expect(released.releasedBy).toBe(owner.userId)
    expect(released.releasedAt).not.toBeNull()
    const again = await release(owner, hold.id)
    expect(again.releasedAt).toBe(released.releasedAt)
    const standing = await t.app.inject({
      url: `${holdsUrl(owner)}?inForce=true`,
      headers: owner.headers,
    })
    expect(standing.json().items).toEqual([])
    const all = await t.app.inject({ url: holdsUrl(owner), headers: owner.headers })
    expect(all.json()).toMatchObject({
      total: 1,
      items: [expect.objectContaining({ id: hold.id })],
    })

    const audit = await t.database.db
      .select({ action: auditLogs.action, meta: auditLogs.meta })
      .from(auditLogs)
      .where(and(eq(auditLogs.orgId, owner.orgId), eq(auditLogs.targetId, hold.id)))
    expect(audit.map((a) => a.action).sort()).toEqual(['legal_hold.place', 'legal_hold.release'])
    expect(JSON.stringify(audit)).not.toContain('Smith')
  })

  it('refuses a member (403), a missing reason or one past 500 characters (400), an unknown target (404)', async () => {
    const owner = await signedInMember(t)
    const documentId = await pasteDocument(t, owner, 'Lease', 'The tenant shall pay rent.')
    const plain = await signedInWithRole(t, owner.orgId, 'member')
    const post = (by: TestMember, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: holdsUrl(by), headers: by.headers, payload })
    expect(
      (await post(plain, { targetKind: 'document', targetId: documentId, reason: 'x' })).statusCode,
    ).toBe(403)
    expect(
      (await post(owner, { targetKind: 'document', targetId: documentId, reason: ' ' })).statusCode,
    ).toBe(400)
    expect(
      (await post(owner, { targetKind: 'document', targetId: documentId, reason: 'x'.repeat(501) }))
        .statusCode,
    ).toBe(400)
    expect(
      (await post(owner, { targetKind: 'file', targetId: documentId, reason: 'x' })).statusCode,
    ).toBe(400)
    const missing = await post(owner, {
      targetKind: 'document',
      targetId: randomUUID(),
      reason: 'x',
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().code).toBe('legal_hold_not_found')
    const notMember = await post(owner, { targetKind: 'member', targetId: 'nobody', reason: 'x' })
    expect(notMember.statusCode).toBe(404)
  })

  it("keeps holds to their organisation: another org's target, list and hold are 404 or invisible (cross-tenant)", async () => {
    const alice = await signedInMember(t, 'Alice Firm')
    const mallory = await signedInMember(t, 'Mallory Firm')
    const documentId = await pasteDocument(t, alice, 'Lease', 'The tenant shall pay rent.')
    const hold = await placeHold(alice, 'document', documentId)

    const onAlices = await t.app.inject({
      method: 'POST',
      url: holdsUrl(mallory),
      headers: mallory.headers,
      payload: { targetKind: 'document', targetId: documentId, reason: 'x' },
    })
    expect(onAlices.statusCode).toBe(404)
    const aliceList = await t.app.inject({ url: holdsUrl(alice), headers: mallory.headers })
    expect(aliceList.statusCode).toBe(404)
    const releaseAlices = await t.app.inject({
      method: 'DELETE',
      url: `${holdsUrl(mallory)}/${hold.id}`,
      headers: mallory.headers,
    })
    expect(releaseAlices.statusCode).toBe(404)
    // Row-level security itself: Mallory's tenant transaction sees none of Alice's holds.
    const seen = await withTenant(t.database.db, principalOf(mallory), (tx) =>
      tx.select().from(legalHolds),
    )
    expect(seen).toEqual([])
    const [still] = await t.database.db.select().from(legalHolds).where(eq(legalHolds.id, hold.id))
    expect(still?.releasedAt).toBeNull()
  })
})

/** One deleting operation driven against a held item: its request and whether the item stands. */
interface HeldDeletion {
  /** Makes the item and places the hold that must stop the deletion; answers the hold's id. */
  setUp(owner: TestMember): Promise<{
    holdId: string
    request: { method: 'DELETE' | 'POST'; url: string; payload?: Record<string, unknown> }
    stands(): Promise<boolean>
    /** The status once the hold is released. */
    after: number
    /** Who asks (default: the owner). */
    as?: TestMember
  }>
}

/** Every operation that deletes data a hold reaches, by operationId. */
const HELD_DELETIONS: Record<string, HeldDeletion> = {
  deleteDocument: {
    async setUp(owner) {
      const id = await pasteDocument(t, owner, 'Lease', 'The tenant shall pay rent.')
      const hold = await placeHold(owner, 'document', id)
      return {
        holdId: hold.id,
        request: { method: 'DELETE', url: `/api/v1/orgs/${owner.orgId}/documents/${id}` },
        stands: () => exists(documents, id),
        after: 204,
      }
    },
  },
  deleteDocuments: {
    // A hold on the app holds its documents: one held document in the selection stops them all.
    async setUp(owner) {
      const appId = await createApp(owner)
      const free = await pasteDocument(t, owner, 'Memo', 'A note.')
      const id = await pasteDocument(t, owner, 'Lease', 'The tenant shall pay rent.', appId)
      const hold = await placeHold(owner, 'app', appId)
      return {
        holdId: hold.id,
        request: {
          method: 'POST',
          url: `/api/v1/orgs/${owner.orgId}/documents/bulk-delete`,
          payload: { ids: [free, id] },
        },
        stands: async () => (await exists(documents, id)) && (await exists(documents, free)),
        after: 200,
      }
    },
  },
  deleteRecording: {
    // A hold on a member holds the recordings they made.
    async setUp(owner) {
      const id = await insertRecording(owner)
      const hold = await placeHold(owner, 'member', owner.userId)
      return {
        holdId: hold.id,
        request: { method: 'DELETE', url: `/api/v1/orgs/${owner.orgId}/recordings/${id}` },
        stands: () => exists(recordings, id),
        after: 204,
      }
    },
  },
  deleteObject: {
    async setUp(owner) {
      const { objectId } = await insertObject(owner)
      const hold = await placeHold(owner, 'member', owner.userId)
      return {
        holdId: hold.id,
        request: {
          method: 'DELETE',
          url: `/api/v1/orgs/${owner.orgId}/storage/objects/${objectId}`,
        },
        stands: () => exists(storageObjects, objectId),
        after: 204,
      }
    },
  },
  deleteBucket: {
    // The bucket's objects go by cascade, which the hold on their uploader stops.
    async setUp(owner) {
      const { bucketId, objectId } = await insertObject(owner)
      const hold = await placeHold(owner, 'member', owner.userId)
      return {
        holdId: hold.id,
        request: {
          method: 'DELETE',
          url: `/api/v1/orgs/${owner.orgId}/storage/buckets/${bucketId}`,
        },
        stands: () => exists(storageObjects, objectId),
        after: 204,
      }
    },
  },
  removeMember: {
    async setUp(owner) {
      const associate = await signedInWithRole(t, owner.orgId, 'member')
      const memberId = await membershipIdOf(t, associate, owner.orgId)
      const hold = await placeHold(owner, 'member', associate.userId)
      return {
        holdId: hold.id,
        request: { method: 'DELETE', url: `/api/v1/orgs/${owner.orgId}/members/${memberId}` },
        stands: async () =>
          (await t.database.db.select().from(member).where(eq(member.id, memberId))).length === 1,
        after: 204,
      }
    },
  },
}

HELD_DELETIONS.leaveOrganization = {
  async setUp(owner) {
    const associate = await signedInWithRole(t, owner.orgId, 'member')
    const memberId = await membershipIdOf(t, associate, owner.orgId)
    const hold = await placeHold(owner, 'member', associate.userId)
    return {
      holdId: hold.id,
      request: { method: 'POST', url: `/api/v1/orgs/${owner.orgId}/leave` },
      stands: async () =>
        (await t.database.db.select().from(member).where(eq(member.id, memberId))).length === 1,
      after: 204,
      as: associate,
    }
  },
}

/** Deleting operations whose rows no hold names, with why. */
const NOT_HELD: Record<string, string> = {
  deleteReview: 'a review grid is work over documents, which keep their own holds',
  deleteSsoProvider:
    "an identity provider's settings are the organisation's sign-in configuration, no matter's data",
  deleteComparison:
    'a comparison is derived from two documents, which keep their own holds; it can be made again',
  deletePlaybook:
    "the firm's standard positions and the checks made with them: no hold target; the checked documents keep their own holds",
  removeReviewColumn: 'a question of a review grid, not held data',
  deleteEntity: "the organisation's own data tables (clients, matters…), not a hold target",
  deleteEntities: 'as deleteEntity',
  cancelInvitation: 'an invitation not yet accepted: no data of a member',
  revokeApiKey: 'keys are revoked, never deleted',
  revokeTenantToken: 'tokens are revoked, never deleted',
  releaseLegalHold: 'releases a hold: it stays on record',
  clearRetentionPolicy:
    'a rule of how long to keep data, not held data (the retention run obeys holds)',
}

describe('every deletion path refuses while a hold stands', () => {
  it('classifies every deleting operation of the API', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>
    }
    const deleting = Object.values(doc.paths).flatMap((ops) =>
      Object.entries(ops)
        .filter(
          ([method, op]) =>
            method === 'delete' || /^(delete|remove|leave)/.test(op.operationId ?? ''),
        )
        .map(([, op]) => op.operationId ?? '?'),
    )
    expect(deleting.length).toBeGreaterThanOrEqual(14)
    for (const id of deleting)
      expect(id in HELD_DELETIONS || id in NOT_HELD, `${id}: held or not? classify it here`).toBe(
        true,
      )
  })

  for (const [operationId, deletion] of Object.entries(HELD_DELETIONS)) {
    it(`${operationId}: 409 legal_hold while the hold stands, the row kept; allowed once released`, async () => {
      const owner = await signedInMember(t, 'Walk Firm')
      const { holdId, request, stands, after, as = owner } = await deletion.setUp(owner)
      const refused = await t.app.inject({ ...request, headers: as.headers })
      expectLegalHold(refused)
      expect(await stands()).toBe(true)
      await release(owner, holdId)
      const allowed = await t.app.inject({ ...request, headers: as.headers })
      expect(allowed.statusCode, allowed.body).toBe(after)
    })
  }

  it('refuses to delete an organisation while any hold stands in it', async () => {
    const owner = await signedInMember(t, 'Closing Firm')
    // Indexed first: on PostgreSQL under load the second delete once answered 500, most likely
    // meeting the document's indexing job mid-write (not confirmed; noted on issue 45).
    const documentId = await addIndexedDocument(t, owner, 'Lease', 'The tenant shall pay rent.')
    const hold = await placeHold(owner, 'document', documentId)
    const remove = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/organization/delete',
        headers: owner.headers,
        payload: { organizationId: owner.orgId },
      })
    expectLegalHold(await remove())
    expect(await exists(documents, documentId)).toBe(true)
    // Nothing half-deleted: better-auth deletes the members first, so it must not have started.
    const members = await t.database.db
      .select()
      .from(member)
      .where(eq(member.organizationId, owner.orgId))
    expect(members).toHaveLength(1)
    await release(owner, hold.id)
    expect((await remove()).statusCode).toBe(200)
    expect(
      await t.database.db.select().from(organization).where(eq(organization.id, owner.orgId)),
    ).toEqual([])
  })

  it('stops at the database whatever deletes: an app, a transcript of a held recording, a conversation, the organisation', async () => {
    const owner = await signedInMember(t, 'Direct Firm')
    const appId = await createApp(owner)
    const documentId = await pasteDocument(t, owner, 'Lease', 'The tenant shall pay rent.', appId)
    const recordingId = await insertRecording(owner)
    const transcriptId = await pasteDocument(t, owner, 'Transcript', 'Hello.')
    const conversationId = randomUUID()
    await withTenant(t.database.db, principalOf(owner), async (tx) => {
      await tx
        .update(recordings)
        .set({ documentId: transcriptId })
        .where(eq(recordings.id, recordingId))
      await tx.insert(conversations).values({ id: conversationId, orgId: owner.orgId, appId })
    })
    await placeHold(owner, 'app', appId)
    await placeHold(owner, 'recording', recordingId)
    const code = (error: unknown) =>
      (error as { code?: string; cause?: { code?: string } }).cause?.code ??
      (error as { code?: string }).code
    const db = t.database.db
    // Outside any tenant transaction (as better-auth, a job or an operator would delete).
    await expect(db.delete(apps).where(eq(apps.id, appId)).catch(code)).resolves.toBe(
      LEGAL_HOLD_SQLSTATE,
    )
    await expect(
      db.delete(documents).where(eq(documents.id, transcriptId)).catch(code),
    ).resolves.toBe(LEGAL_HOLD_SQLSTATE)
    await expect(
      db.delete(conversations).where(eq(conversations.id, conversationId)).catch(code),
    ).resolves.toBe(LEGAL_HOLD_SQLSTATE)
    // The organisation's own row (as the import job drops a staging one, or an operator would):
    // refused while any hold stands in it, before its rows' cascades begin.
    await expect(
      db.delete(organization).where(eq(organization.id, owner.orgId)).catch(code),
    ).resolves.toBe(LEGAL_HOLD_SQLSTATE)
    expect(await exists(documents, documentId)).toBe(true)
    expect(await exists(documents, transcriptId)).toBe(true)
    // Holds are released, never deleted by a request: the application role has no DELETE.
    await expect(
      withTenant(db, principalOf(owner), (tx) => tx.delete(legalHolds)).catch((e: unknown) =>
        code(e),
      ),
    ).resolves.toBe('42501')
  })
})

describe('the database and holdReaches agree', () => {
  it('refuses exactly the deletions holdReaches says a hold reaches, for every kind of hold and item', async () => {
    const owner = await signedInMember(t, 'Parity Firm')
    const associate = await signedInWithRole(t, owner.orgId, 'member')
    const [appA, appB] = [await createApp(owner), await createApp(owner)]
    const doc1 = await pasteDocument(t, owner, 'Lease', 'The tenant shall pay rent.', appA)
    const doc2 = await pasteDocument(t, associate, 'Memo', 'A note.', appB)
    const transcript = await pasteDocument(t, owner, 'Transcript', 'Hello.')
    const recording = await insertRecording(associate)
    const conversation = randomUUID()
    const { objectId } = await insertObject(owner)
    const associateMember = await membershipIdOf(t, associate, owner.orgId)
    await withTenant(t.database.db, principalOf(owner), async (tx) => {
      await tx
        .update(recordings)
        .set({ documentId: transcript })
        .where(eq(recordings.id, recording))
      await tx.insert(conversations).values({
        id: conversation,
        orgId: owner.orgId,
        appId: appA,
        createdBy: associate.userId,
      })
    })
    const items: {
      item: HoldableItem
      remove: (tx: Tx) => Promise<unknown>
    }[] = [
      {
        item: { kind: 'document', id: doc1, appId: appA, createdBy: owner.userId },
        remove: (tx) => tx.delete(documents).where(eq(documents.id, doc1)),
      },
      {
        item: { kind: 'document', id: doc2, appId: appB, createdBy: associate.userId },
        remove: (tx) => tx.delete(documents).where(eq(documents.id, doc2)),
      },
      {
        item: {
          kind: 'document',
          id: transcript,
          appId: null,
          createdBy: owner.userId,
          transcriptOf: recording,
        },
        remove: (tx) => tx.delete(documents).where(eq(documents.id, transcript)),
      },
      {
        item: { kind: 'recording', id: recording, appId: null, createdBy: associate.userId },
        remove: (tx) => tx.delete(recordings).where(eq(recordings.id, recording)),
      },
      {
        item: { kind: 'conversation', id: conversation, appId: appA, createdBy: associate.userId },
        remove: (tx) => tx.delete(conversations).where(eq(conversations.id, conversation)),
      },
      {
        item: { kind: 'storage_object', id: objectId, createdBy: owner.userId },
        remove: (tx) => tx.delete(storageObjects).where(eq(storageObjects.id, objectId)),
      },
      {
        item: { kind: 'member', id: associate.userId },
        remove: (tx) => tx.delete(member).where(eq(member.id, associateMember)),
      },
      {
        // Its documents, recordings and conversations outlive it (app_id set null): not contents.
        item: { kind: 'app', id: appA },
        remove: (tx) => tx.delete(apps).where(eq(apps.id, appA)),
      },
    ]
    const holds: HoldInForce[] = [
      { targetKind: 'app', targetId: appA },
      { targetKind: 'app', targetId: appB },
      { targetKind: 'document', targetId: doc1 },
      { targetKind: 'document', targetId: transcript },
      { targetKind: 'recording', targetId: recording },
      { targetKind: 'member', targetId: owner.userId },
      { targetKind: 'member', targetId: associate.userId },
    ]
    const ROLLBACK = new Error('rollback')
    const disagreements: string[] = []
    let refusals = 0
    for (const hold of holds) {
      const [row] = await t.database.db
        .insert(legalHolds)
        .values({ orgId: owner.orgId, ...hold, reason: REASON })
        .returning({ id: legalHolds.id })
      for (const { item, remove } of items) {
        const expected = holdReaches(hold, item)
        // Each deletion is tried and rolled back, so every item stands for the next hold.
        const refused = await t.database.db
          .transaction(async (tx) => {
            await remove(tx)
            throw ROLLBACK
          })
          .catch((error: unknown) => {
            if (error === ROLLBACK) return false
            if (isLegalHoldViolation(error)) return true
            throw error
          })
        if (refused) refusals++
        if (refused !== expected)
          disagreements.push(
            `${hold.targetKind} hold × ${item.kind}: db ${refused}, rule ${expected}`,
          )
      }
      await t.database.db.delete(legalHolds).where(eq(legalHolds.id, row!.id))
    }
    expect(disagreements).toEqual([])
    expect(refusals).toBeGreaterThanOrEqual(10)
  })
})
