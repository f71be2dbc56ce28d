/**
 * The realtime endpoint (issue 24's acceptance): two organisations each with a socket, a change
 * in one never reaches the other (also when both subscribe to the same table), only allow-listed
 * tables, Origin checked at the upgrade, sign-out, credential expiry and revocation close the socket.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { and, eq } from 'drizzle-orm'
import { member } from '../../db/schema'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { createTestCredentials } from '../../test/test-credentials'
import { MESSAGE_BURST } from '../../realtime/realtime-hub'

const credentials = createTestCredentials()
/** Sockets one person may hold here: small, so the cap is reached in a few opens. */
const SOCKETS_PER_USER = 3
const t = await buildTestApp({
  credentialVerifiers: [credentials.verifier],
  realtimeSocketsPerUser: SOCKETS_PER_USER,
})
afterAll(() => t.close())
// injectWS (@fastify/websocket 11.3) sends Sec-WebSocket-Version as the number 13, which ws since
// 8.23.1 refuses (400) as a real client's header is always text: give the server the text a
// browser sends, before the upgrade reaches the route.
t.app.server.prependListener('upgrade', (req: { headers: Record<string, unknown> }) => {
  const version = req.headers['sec-websocket-version']
  if (typeof version === 'number') req.headers['sec-websocket-version'] = String(version)
})

/** The client socket injectWS opens (ws's WebSocket). */
type WebSocket = Awaited<ReturnType<typeof t.app.injectWS>>

/** A client socket with every message it received, parsed, and how it closed. */
interface Client {
  ws: WebSocket
  messages: Array<Record<string, unknown>>
  closed: { code: number; reason: string } | null
}

const path = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/realtime`

async function open(url: string, headers: Record<string, string>): Promise<Client> {
  const client: Client = { ws: undefined as unknown as WebSocket, messages: [], closed: null }
  client.ws = await t.app.injectWS(url, { headers })
  client.ws.on('message', (data: Buffer) =>
    client.messages.push(JSON.parse(data.toString()) as Record<string, unknown>),
  )
  client.ws.on('close', (code: number, reason: Buffer) => {
    client.closed = { code, reason: reason.toString() }
  })
  return client
}

/** Subscribes `client` to `table` and waits for the confirmation. */
async function subscribe(client: Client, table: string): Promise<void> {
  const before = client.messages.length
  client.ws.send(JSON.stringify({ type: 'subscribe', table }))
  await expect
    .poll(() => client.messages.slice(before).find((m) => m.type !== undefined))
    .toMatchObject({ type: 'subscribed', table })
}

const changes = (client: Client) => client.messages.filter((m) => m.type === 'change')

async function createEntity(m: TestMember, name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/entities`,
    headers: m.headers,
    payload: { type: 'client', name },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

describe('the realtime socket', () => {
  it("sends an organisation's changes to its own sockets only, even on the same table", async () => {
    const a = await signedInMember(t, 'Realtime A Firm')
    const b = await signedInMember(t, 'Realtime B Firm')
    const socketA = await open(path(a), a.headers)
    const socketB = await open(path(b), b.headers)
    await subscribe(socketA, 'public.entities')
    await subscribe(socketB, 'public.entities')

    const idA = await createEntity(a, 'Secret client of A')
    await expect.poll(() => changes(socketA).length).toBe(1)
    expect(changes(socketA)[0]).toMatchObject({
      table: 'public.entities',
      op: 'insert',
      count: 1,
      ids: [idA],
      rows: [{ id: idA, name: 'Secret client of A', type: 'client' }],
    })
    // B's first change is its own: A's, announced earlier on the same channel, never came.
    const idB = await createEntity(b, 'Client of B')
    await expect.poll(() => changes(socketB).length).toBe(1)
    expect(changes(socketB)[0]).toMatchObject({ ids: [idB] })
    expect(JSON.stringify(socketB.messages)).not.toContain('Secret client of A')
    expect(JSON.stringify(socketB.messages)).not.toContain(idA)
    socketA.ws.terminate()
    socketB.ws.terminate()
  })

  it('refuses a table outside the allow-list and sends ids only for deletes', async () => {
    const a = await signedInMember(t, 'Realtime Table Firm')
    const socket = await open(path(a), a.headers)
    socket.ws.send(JSON.stringify({ type: 'subscribe', table: 'public.session' }))
    await expect
      .poll(() => socket.messages.at(-1))
      .toMatchObject({ type: 'error', code: 'table_not_allowed' })
    await subscribe(socket, 'public.entities')
    const id = await createEntity(a, 'Short-lived')
    await t.database.db.execute(sql`DELETE FROM entities WHERE id = ${id}`)
    await expect.poll(() => changes(socket).length).toBe(2)
    expect(changes(socket)[1]).toMatchObject({ op: 'delete', ids: [id] })
    expect(changes(socket)[1]).not.toHaveProperty('rows')
    socket.ws.terminate()
  })

  it('refuses an upgrade with the cookie from another origin, or with no Origin', async () => {
    const a = await signedInMember(t, 'Realtime Origin Firm')
    await expect(open(path(a), { ...a.headers, origin: 'http://localhost:9999' })).rejects.toThrow(
      /403/,
    )
    await expect(open(path(a), { cookie: a.headers.cookie })).rejects.toThrow(/403/)
    await expect(open(path(a), { origin: a.headers.origin })).rejects.toThrow(/401/)
  })

  it('refuses a member of another organisation as if it did not exist', async () => {
    const a = await signedInMember(t, 'Realtime Owner Firm')
    const outsider = await signedInMember(t, 'Realtime Outsider Firm')
    await expect(open(path(a), outsider.headers)).rejects.toThrow(/404/)
  })

  it('closes the socket when its session signs out', async () => {
    const a = await signedInMember(t, 'Realtime Sign-out Firm')
    const socket = await open(path(a), a.headers)
    await subscribe(socket, 'public.entities')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: a.headers,
      payload: {},
    })
    expect(res.statusCode, res.body).toBe(200)
    await expect.poll(() => socket.closed).toMatchObject({ code: 4401 })
  })

  it('opens with a bearer credential (no Origin needed) and closes when it expires', async () => {
    const a = await signedInMember(t, 'Realtime Token Firm')
    const { authorization } = credentials.issue({
      orgId: a.orgId,
      userId: a.userId,
      role: 'member',
      expiresAt: new Date(Date.now() + 300),
    })
    const socket = await open(path(a), { authorization })
    await subscribe(socket, 'public.entities')
    await expect.poll(() => socket.closed, { timeout: 5000 }).toMatchObject({ code: 4401 })
  })
})

describe('revoked credentials', () => {
  it('closes a socket opened with an API key or a tenant token as soon as it is revoked', async () => {
    const a = await signedInMember(t, 'Realtime Revocation Firm')
    const minted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${a.orgId}/api-keys`,
      headers: a.headers,
      payload: { name: 'Live feed', scopes: 'read' },
    })
    expect(minted.statusCode, minted.body).toBe(201)
    const apiKey = minted.json() as { id: string; key: string }
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${a.orgId}/tokens`,
      headers: a.headers,
      payload: { ttl_seconds: 3600, scope: 'read' },
    })
    expect(issued.statusCode, issued.body).toBe(201)
    const token = issued.json() as { token: string; claims: { jti: string } }
    const byKey = await open(path(a), { authorization: `Bearer ${apiKey.key}` })
    const byToken = await open(path(a), { authorization: `Bearer ${token.token}` })
    await subscribe(byKey, 'public.entities')
    await subscribe(byToken, 'public.entities')

    const revokeKey = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${a.orgId}/api-keys/${apiKey.id}`,
      headers: a.headers,
    })
    expect(revokeKey.statusCode, revokeKey.body).toBeLessThan(300)
    await expect.poll(() => byKey.closed).toEqual({ code: 4401, reason: 'Credential revoked' })
    expect(byToken.closed).toBeNull()

    const revokeToken = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${a.orgId}/tokens/${token.claims.jti}`,
      headers: a.headers,
    })
    expect(revokeToken.statusCode, revokeToken.body).toBeLessThan(300)
    await expect.poll(() => byToken.closed).toEqual({ code: 4401, reason: 'Credential revoked' })
  })
})

/** Mints an API key of `m` (an admin or owner) with `expiresAt`, if given; returns it. */
async function apiKeyOf(m: TestMember, expiresAt?: Date): Promise<{ id: string; key: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/api-keys`,
    headers: m.headers,
    payload: {
      name: 'Live feed',
      scopes: 'read',
      ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; key: string }
}

/** Mints a tenant token of `m` (an admin or owner) living `ttlSeconds`; returns it. */
async function tenantTokenOf(m: TestMember, ttlSeconds: number): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/tokens`,
    headers: m.headers,
    payload: { ttl_seconds: ttlSeconds, scope: 'read' },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { token: string }).token
}

/** The id of `m`'s membership row in their organisation. */
async function memberIdOf(m: TestMember): Promise<string> {
  const [row] = await t.database.db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.userId, m.userId), eq(member.organizationId, m.orgId)))
  if (!row) throw new Error('not a member')
  return row.id
}

/** `owner` removes `removed` from their organisation through the team API. */
async function removeMember(owner: TestMember, removed: TestMember): Promise<void> {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/api/v1/orgs/${owner.orgId}/members/${await memberIdOf(removed)}`,
    headers: owner.headers,
  })
  expect(res.statusCode, res.body).toBe(204)
}

describe('sockets of a person who lost access (issue 41)', () => {
  it("closes a removed member's socket (4403), so it receives none of the firm's later changes", async () => {
    const owner = await signedInMember(t, 'Realtime Removal Firm')
    const leaver = await signedInWithRole(t, owner.orgId, 'member')
    const socket = await open(path(leaver), leaver.headers)
    await subscribe(socket, 'public.entities')

    await removeMember(owner, leaver)
    await expect
      .poll(() => socket.closed)
      .toEqual({
        code: 4403,
        reason: 'No longer a member of this organisation',
      })
    await createEntity(owner, 'Client after the removal')
    expect(JSON.stringify(socket.messages)).not.toContain('Client after the removal')
  })

  it("closes a member's sockets when another instance removes them: the database announces it", async () => {
    const owner = await signedInMember(t, 'Realtime Elsewhere Firm')
    const leaver = await signedInWithRole(t, owner.orgId, 'admin')
    const byCookie = await open(path(leaver), leaver.headers)
    const byKey = await open(path(leaver), {
      authorization: `Bearer ${(await apiKeyOf(leaver)).key}`,
    })
    const ownerSocket = await open(path(owner), owner.headers)
    // No request of this process: the row goes as another instance's removal would take it.
    await t.database.db.delete(member).where(eq(member.id, await memberIdOf(leaver)))
    await expect.poll(() => byCookie.closed).toMatchObject({ code: 4403 })
    await expect.poll(() => byKey.closed).toMatchObject({ code: 4403 })
    expect(ownerSocket.closed).toBeNull()
    ownerSocket.ws.terminate()
  })

  it('closes a socket opened with an API key or a tenant token when their creator is removed', async () => {
    const owner = await signedInMember(t, 'Realtime Creator Firm')
    const creator = await signedInWithRole(t, owner.orgId, 'admin')
    const byKey = await open(path(creator), {
      authorization: `Bearer ${(await apiKeyOf(creator)).key}`,
    })
    const byToken = await open(path(creator), {
      authorization: `Bearer ${await tenantTokenOf(creator, 3600)}`,
    })
    await subscribe(byKey, 'public.entities')
    await removeMember(owner, creator)
    await expect.poll(() => byKey.closed).toMatchObject({ code: 4403 })
    await expect.poll(() => byToken.closed).toMatchObject({ code: 4403 })
    await createEntity(owner, 'Client after the creator left')
    expect(JSON.stringify(byKey.messages)).not.toContain('Client after the creator left')
  })

  it('closes the sockets of a member who leaves, and of every session signed out everywhere', async () => {
    const owner = await signedInMember(t, 'Realtime Leave Firm')
    const leaver = await signedInWithRole(t, owner.orgId, 'member')
    const leaving = await open(path(leaver), leaver.headers)
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/leave`,
      headers: leaver.headers,
    })
    expect(left.statusCode, left.body).toBe(204)
    await expect.poll(() => leaving.closed).toMatchObject({ code: 4403 })

    const ownerSocket = await open(path(owner), owner.headers)
    const everywhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke-sessions',
      headers: owner.headers,
      payload: {},
    })
    expect(everywhere.statusCode, everywhere.body).toBe(200)
    await expect.poll(() => ownerSocket.closed).toMatchObject({ code: 4401 })
  })
})

describe('an upgrade admitted by a cache that has not heard of the end yet (issue 41)', () => {
  // Another instance's removal or revocation reaches this one's caches through the revocation
  // relay (or their 10 s lifetime), and its database notice may come first: a direct SQL change
  // leaves this process's caches as such an instance's are, and the socket must still close.
  it("closes a socket opened from a cached membership after the member's row went", async () => {
    const owner = await signedInMember(t, 'Realtime Cached Member Firm')
    const leaver = await signedInWithRole(t, owner.orgId, 'member')
    const warm = await t.app.inject({ method: 'GET', url: path(leaver), headers: leaver.headers })
    expect(warm.statusCode, warm.body).toBe(200)
    await t.database.db.delete(member).where(eq(member.id, await memberIdOf(leaver)))
    const socket = await open(path(leaver), leaver.headers)
    await expect
      .poll(() => socket.closed)
      .toEqual({
        code: 4403,
        reason: 'No longer a member of this organisation',
      })
  })

  it('closes a socket opened with a cached API key after the key was revoked', async () => {
    const a = await signedInMember(t, 'Realtime Cached Key Firm')
    const { id, key } = await apiKeyOf(a)
    const authorization = `Bearer ${key}`
    const warm = await t.app.inject({ method: 'GET', url: path(a), headers: { authorization } })
    expect(warm.statusCode, warm.body).toBe(200)
    await t.database.db.execute(sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`)
    const socket = await open(path(a), { authorization })
    await expect.poll(() => socket.closed).toEqual({ code: 4401, reason: 'Credential revoked' })
  })
})

describe('sockets of an expiring credential (issue 41)', () => {
  it('closes a socket opened with an API key when the key expires', async () => {
    const a = await signedInMember(t, 'Realtime Expiring Key Firm')
    const { key } = await apiKeyOf(a, new Date(Date.now() + 2000))
    const socket = await open(path(a), { authorization: `Bearer ${key}` })
    await expect
      .poll(() => socket.closed, { timeout: 15_000 })
      .toEqual({ code: 4401, reason: 'Credential expired' })
  })

  it('closes a socket opened with a tenant token when the token expires', async () => {
    const a = await signedInMember(t, 'Realtime Expiring Token Firm')
    const token = await tenantTokenOf(a, 3)
    const socket = await open(path(a), { authorization: `Bearer ${token}` })
    await expect
      .poll(() => socket.closed, { timeout: 15_000 })
      .toEqual({ code: 4401, reason: 'Credential expired' })
  })
})

describe('caps on sockets and messages (issue 41)', () => {
  it('refuses a person past REALTIME_SOCKETS_PER_USER sockets with 429, over their credentials, and admits them again when one closes', async () => {
    const a = await signedInMember(t, 'Realtime Cap Firm')
    const other = await signedInMember(t, 'Realtime Uncapped Firm')
    const { key } = await apiKeyOf(a)
    const held = [
      await open(path(a), a.headers),
      await open(path(a), a.headers),
      await open(path(a), { authorization: `Bearer ${key}` }),
    ]
    expect(held).toHaveLength(SOCKETS_PER_USER)
    await expect(open(path(a), a.headers)).rejects.toThrow(/429/)
    await expect(open(path(a), { authorization: `Bearer ${key}` })).rejects.toThrow(/429/)
    // Another person is not held back by a's sockets.
    const theirs = await open(path(other), other.headers)

    // A tab closed: its connection goes (injectWS's streams only end on terminate).
    held[0]!.ws.terminate()
    let again: Client | null = null
    await expect
      .poll(async () => (again = await open(path(a), a.headers).catch(() => null)))
      .not.toBeNull()
    for (const c of [...held, theirs, again!]) c.ws.terminate()
  })

  it('closes a socket that sends more messages than its burst allows (1008)', async () => {
    const a = await signedInMember(t, 'Realtime Flood Firm')
    const socket = await open(path(a), a.headers)
    for (let i = 0; i < MESSAGE_BURST * 3; i += 1) {
      socket.ws.send(JSON.stringify({ type: 'unsubscribe', table: 'public.entities' }))
    }
    await expect.poll(() => socket.closed).toMatchObject({ code: 1008 })
    // The burst was answered (and a token or two refilled meanwhile), the flood past it not.
    expect(socket.messages.length).toBeLessThan(MESSAGE_BURST * 2)
  })
})

describe('GET without an upgrade', () => {
  it('lists the tables a socket may subscribe to', async () => {
    const a = await signedInMember(t, 'Realtime List Firm')
    const res = await t.app.inject({ method: 'GET', url: path(a), headers: a.headers })
    expect(res.statusCode).toBe(200)
    expect((res.json() as { tables: string[] }).tables).toContain('public.entities')
  })
})
