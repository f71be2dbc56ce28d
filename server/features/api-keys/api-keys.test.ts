/**
 * API keys end to end through the real app: created by an admin, sent as a Bearer token or in
 * x-api-key, capped by scopes, refused once revoked, expired or tampered with, limited per key,
 * confined to their organisation by RLS, and their secret never seen again after creation.
 */
import { Writable } from 'node:stream'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  buildTestApp,
  testAppForFile,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { createApiKey, setMemberRole, type CreatedApiKey } from '../../test/api-keys'
import { apiKeys, auditLogs } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import { createLogger } from '../../http/logger'
import { hashApiKey } from './api-key-secret'

let text = ''
const stream = new Writable({
  write(chunk, _encoding, done) {
    text += String(chunk)
    done()
  },
})
const t = await testAppForFile({ logger: createLogger({ level: 'trace', stream }) })

const keysUrl = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/api-keys`
const documentsUrl = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/documents`

/** A key `by` makes in their organisation with `payload`; fails the test unless it is made. */
const createKey = (by: TestMember, payload: Record<string, unknown> = {}) =>
  createApiKey(t, by, payload)

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

function expectInvalidToken(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(401)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
}

describe('creating and listing keys', () => {
  it('answers the secret once, keeps only its digest and lists the key without it', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const created = await createKey(owner)
    expect(created.key).toMatch(/^ldk_[\w-]{43}$/)
    expect(created.prefix).toBe(created.key.slice(0, 10))
    expect(created.scopes).toEqual(['read', 'write'])
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id))
    expect(row?.keyHash).toBe(hashApiKey(created.key))
    expect(JSON.stringify(row)).not.toContain(created.key.slice(10))

    const list = await t.app.inject({ url: keysUrl(owner), headers: owner.headers })
    expect(list.statusCode).toBe(200)
    expect(list.json().items).toEqual([
      expect.objectContaining({ id: created.id, name: 'Intake form', prefix: created.prefix }),
    ])
    expect(list.body).not.toContain(created.key)
  })

  it('reads scopes as comma-separated text, trimmed, blanks removed; none gives read,write', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const created = await createKey(owner, { scopes: ' read , ,admin,read ' })
    expect(created.scopes).toEqual(['read', 'admin'])
    // The spec's default 'read,write', for a field left blank as for one left out (and as a
    // tenant token's).
    expect((await createKey(owner, { scopes: ' , ' })).scopes).toEqual(['read', 'write'])
    expect((await createKey(owner, { scopes: undefined })).scopes).toEqual(['read', 'write'])
    const res = await t.app.inject({
      method: 'POST',
      url: keysUrl(owner),
      headers: owner.headers,
      payload: { name: 'Bad', scopes: 'read,delete' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    const rows = await t.database.db.select().from(apiKeys).where(eq(apiKeys.orgId, owner.orgId))
    expect(rows).toHaveLength(3)
  })

  it('names a key without control or bidi characters, and refuses a name left empty', async () => {
    const owner = await signedInMember(t, 'Key Names Firm')
    const key = await createKey(owner, { name: 'CI\u0000 deploy\u202E\r\nkey' })
    const list = await t.app.inject({ url: keysUrl(owner), headers: owner.headers })
    const listed = (list.json() as { items: { id: string; name: string }[] }).items
    expect(listed.find((k) => k.id === key.id)?.name).toBe('CI deploy key')
    const empty = await t.app.inject({
      method: 'POST',
      url: keysUrl(owner),
      headers: owner.headers,
      payload: { name: '\u202E\u0000 ' },
    })
    expect(empty.statusCode, empty.body).toBe(400)
    expect(empty.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(empty.json().detail).toMatch(/name/)
  })

  it('refuses an expiry in the past and an app of another organisation', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const other = await signedInMember(t, 'Other Firm')
    const app = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${other.orgId}/apps`,
      headers: other.headers,
      payload: { slug: 'intake' },
    })
    const past = await t.app.inject({
      method: 'POST',
      url: keysUrl(owner),
      headers: owner.headers,
      payload: { name: 'Old', expiresAt: '2020-01-01T00:00:00Z' },
    })
    expect(past.statusCode).toBe(400)
    const foreign = await t.app.inject({
      method: 'POST',
      url: keysUrl(owner),
      headers: owner.headers,
      payload: { name: 'Foreign', appId: (app.json() as { id: string }).id },
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toMatchObject({ code: 'app_not_found' })
  })
})

describe('calling the API with a key', () => {
  it('admits the key as a Bearer token and in x-api-key, and audits its writes as api_key', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const { id, key } = await createKey(owner)
    const listed = await t.app.inject({ url: documentsUrl(owner), headers: bearer(key) })
    expect(listed.statusCode, listed.body).toBe(200)
    const written = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl(owner)}/text`,
      headers: { 'x-api-key': key },
      payload: { title: 'Memo by a program', content: 'Sent by the intake form.' },
    })
    expect(written.statusCode, written.body).toBe(201)
    const audit = await t.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'document.create'))
    expect(audit.filter((row) => row.orgId === owner.orgId)).toEqual([
      expect.objectContaining({ actorType: 'api_key', actorId: owner.userId, credentialId: id }),
    ])
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, id))
    expect(row?.lastUsedAt).toBeInstanceOf(Date)
  })

  it('refuses a write to a read key (403) and any organisation but its own (404)', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const other = await signedInMember(t, 'Other Firm')
    const { key } = await createKey(owner, { scopes: 'read' })
    const write = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl(owner)}/text`,
      headers: bearer(key),
      payload: { title: 'Memo', content: 'No.' },
    })
    expect(write.statusCode).toBe(403)
    expect(write.json()).toMatchObject({ code: 'insufficient_scope' })
    const elsewhere = await t.app.inject({ url: documentsUrl(other), headers: bearer(key) })
    expect(elsewhere.statusCode).toBe(404)
    expect(elsewhere.json()).toMatchObject({ code: 'organization_not_found' })
  })

  it('acts with its creator’s current role: a demoted creator’s key loses admin routes', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const [before, after] = [
      await createKey(admin, { scopes: 'read,admin' }),
      await createKey(admin, { scopes: 'read,admin' }),
    ]
    const listed = await t.app.inject({ url: keysUrl(owner), headers: bearer(before.key) })
    expect(listed.statusCode).toBe(200)
    const demoted = await setMemberRole(t, owner, admin, 'member')
    expect(demoted.statusCode, demoted.body).toBe(204)
    // `after` was never used, so nothing of it is cached: the role is read with the key.
    const res = await t.app.inject({ url: keysUrl(owner), headers: bearer(after.key) })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'forbidden' })
    const read = await t.app.inject({ url: documentsUrl(owner), headers: bearer(after.key) })
    expect(read.statusCode).toBe(200)
  })

  it('answers 401 invalid_token to a revoked, an expired, a tampered and an unknown key', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const revoked = await createKey(owner)
    expect(
      (await t.app.inject({ url: documentsUrl(owner), headers: bearer(revoked.key) })).statusCode,
    ).toBe(200)
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `${keysUrl(owner)}/${revoked.id}`,
      headers: owner.headers,
    })
    expect(revoke.statusCode).toBe(204)
    expectInvalidToken(
      await t.app.inject({ url: documentsUrl(owner), headers: bearer(revoked.key) }),
    )

    const expired = await createKey(owner, {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    })
    await t.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.id))
    expectInvalidToken(
      await t.app.inject({ url: documentsUrl(owner), headers: bearer(expired.key) }),
    )

    const good = await createKey(owner)
    const last = good.key.at(-1) === 'A' ? 'B' : 'A'
    const tampered = `${good.key.slice(0, -1)}${last}`
    expectInvalidToken(await t.app.inject({ url: documentsUrl(owner), headers: bearer(tampered) }))
    expectInvalidToken(
      await t.app.inject({ url: documentsUrl(owner), headers: { 'x-api-key': 'ldk_unknown' } }),
    )
  })

  it('writes an event when a key is created and when it is revoked: its id and name, never its secret or prefix', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const created = await createKey(owner, { name: 'Court filings' })
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `${keysUrl(owner)}/${created.id}`,
      headers: owner.headers,
    })
    expect(revoke.statusCode).toBe(204)
    // Revoking again changes nothing, so it writes no second event.
    await t.app.inject({
      method: 'DELETE',
      url: `${keysUrl(owner)}/${created.id}`,
      headers: owner.headers,
    })
    for (const kind of ['key.created', 'key.revoked']) {
      const res = await t.app.inject({
        url: `/api/v1/orgs/${owner.orgId}/events?kind=${kind}`,
        headers: owner.headers,
      })
      expect(res.statusCode, res.body).toBe(200)
      const { items } = res.json() as { items: Array<{ meta: Record<string, unknown> }> }
      expect(items.map((event) => event.meta)).toEqual([
        { keyId: created.id, name: 'Court filings' },
      ])
      expect(res.body).not.toContain(created.key)
      expect(res.body).not.toContain(created.prefix)
    }
  })

  it('ignores the session cookie when x-api-key is present', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const res = await t.app.inject({
      url: documentsUrl(owner),
      headers: { ...owner.headers, 'x-api-key': 'ldk_not-a-key' },
    })
    expectInvalidToken(res)
  })

  it('answers 404 to revoking a key of another organisation, which stays valid', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const other = await signedInMember(t, 'Other Firm')
    const theirs = await createKey(other)
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${keysUrl(owner)}/${theirs.id}`,
      headers: owner.headers,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'api_key_not_found' })
    expect(
      (await t.app.inject({ url: documentsUrl(other), headers: bearer(theirs.key) })).statusCode,
    ).toBe(200)
  })
})

describe('row-level security of api_keys', () => {
  it('shows and lets write only the organisation’s own keys', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const other = await signedInMember(t, 'Other Firm')
    const theirs = await createKey(other)
    const seen = await withTenant(t.database.db, owner, (tx) =>
      tx.select({ id: apiKeys.id }).from(apiKeys),
    )
    expect(seen.map((row) => row.id)).not.toContain(theirs.id)
    const revoked = await withTenant(t.database.db, owner, (tx) =>
      tx
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(eq(apiKeys.id, theirs.id))
        .returning({ id: apiKeys.id }),
    )
    expect(revoked).toEqual([])
    await expect(
      withTenant(t.database.db, owner, (tx) =>
        tx.insert(apiKeys).values({
          orgId: other.orgId,
          name: 'Planted',
          prefix: 'ldk_planted',
          keyHash: hashApiKey('ldk_planted'),
          scopes: ['admin'],
          createdBy: owner.userId,
        }),
      ),
    ).rejects.toThrow()
    await expect(
      withTenant(t.database.db, owner, (tx) => tx.execute(sql`delete from api_keys`)),
    ).rejects.toThrow()
  })
})

describe('the secret', () => {
  it('never appears in the log, the audit metadata or a later answer', async () => {
    const owner = await signedInMember(t, 'Keys Firm')
    const created = await createKey(owner)
    const secret = created.key.slice(10)
    await t.app.inject({ url: documentsUrl(owner), headers: bearer(created.key) })
    await t.app.inject({ url: documentsUrl(owner), headers: { 'x-api-key': created.key } })
    const list = await t.app.inject({ url: keysUrl(owner), headers: owner.headers })
    await t.app.inject({
      method: 'DELETE',
      url: `${keysUrl(owner)}/${created.id}`,
      headers: owner.headers,
    })
    const audit = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/audit`,
      headers: owner.headers,
    })
    expect(audit.json().items.map((row: { action: string }) => row.action)).toEqual(
      expect.arrayContaining(['api_key.create', 'api_key.revoke']),
    )
    expect(text).toContain(created.id) // the log was captured
    for (const [where, body] of [
      ['log', text],
      ['list', list.body],
      ['audit', audit.body],
    ] as const) {
      expect(body, where).not.toContain(secret)
    }
  })
})

describe('the per-key rate limit', () => {
  it('answers 429 with Retry-After past the key’s budget, whatever the route', async () => {
    const limited = await buildTestApp({
      apiRateLimits: { readsPerMinute: 1000, writesPerMinute: 1000, keyRequestsPerMinute: 2 },
    })
    try {
      const owner = await signedInMember(limited, 'Keys Firm')
      const create = await limited.app.inject({
        method: 'POST',
        url: keysUrl(owner),
        headers: owner.headers,
        payload: { name: 'Busy', scopes: 'read,admin' },
      })
      const { key } = create.json() as CreatedApiKey
      const answers = []
      for (const url of [documentsUrl(owner), keysUrl(owner), documentsUrl(owner)]) {
        answers.push(await limited.app.inject({ url, headers: bearer(key) }))
      }
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 429])
      expect(answers[2]?.json()).toMatchObject({ code: 'rate_limited' })
      expect(Number(answers[2]?.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      const session = await limited.app.inject({ url: documentsUrl(owner), headers: owner.headers })
      expect(session.statusCode).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
