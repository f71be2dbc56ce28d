/**
 * resolvePrincipal: the Authorization header first, the session cookie only without one, and
 * scopes checked by the route guard. The header's credentials are the test-only kind of
 * server/test/test-credentials.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, signedInWithRole } from '../test/test-app'
import { createTestCredentials } from '../test/test-credentials'
import { createCredentialRegistry } from './credential-registry'
import { principalResolver } from './principal'
import { createPrincipalCache } from './principal-cache'
import { SCOPES } from './scopes'

const credentials = createTestCredentials()
const t = await buildTestApp({ credentialVerifiers: [credentials.verifier] })
afterAll(() => t.close())

const owner = await signedInMember(t, 'Principal Firm')
const other = await signedInMember(t, 'Other Firm')
const documentsUrl = `/api/v1/orgs/${owner.orgId}/documents`
const textDocument = { title: 'Key memo', content: 'Written with a credential.' }

function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown> },
  status: number,
) {
  expect(res.statusCode).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
}

describe('a request with an Authorization header', () => {
  it('is refused with 401 when the credential is bad, even beside a valid session cookie', async () => {
    const asOwner = await t.app.inject({ url: documentsUrl, headers: owner.headers })
    expect(asOwner.statusCode).toBe(200)
    for (const authorization of [
      'Bearer lxtest_not-issued',
      'Bearer some-other-token',
      'Basic b3duZXI6c2VjcmV0',
      'Bearer',
      '',
    ]) {
      const res = await t.app.inject({
        url: documentsUrl,
        headers: { ...owner.headers, authorization },
      })
      expectProblem(res, 401)
      expect(res.json()).toMatchObject({ code: 'unauthenticated' })
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
    }
  })

  it('refuses a bad credential before a write, so nothing is created', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl}/text`,
      headers: { ...owner.headers, authorization: 'Bearer lxtest_forged' },
      payload: { ...textDocument, title: 'Forged memo' },
    })
    expectProblem(res, 401)
    const list = await t.app.inject({ url: documentsUrl, headers: owner.headers })
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain('Forged memo')
  })

  it('acts as the credential it carries, not as the cookie beside it', async () => {
    const { authorization } = credentials.issue({ orgId: owner.orgId })
    // The cookie is of a user of another organisation; the credential is of this one.
    const res = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl}/text`,
      headers: { ...other.headers, authorization },
      payload: textDocument,
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ title: 'Key memo', createdBy: null })
  })

  it("hides another organisation's routes from its credential behind a 404", async () => {
    const { authorization } = credentials.issue({ orgId: other.orgId })
    const res = await t.app.inject({ url: documentsUrl, headers: { authorization } })
    expectProblem(res, 404)
    expect(res.json()).toMatchObject({ code: 'organization_not_found' })
  })

  it('admits a read-only credential to reads and refuses it writes with 403 insufficient_scope', async () => {
    const { authorization } = credentials.issue({ orgId: owner.orgId, scopes: ['read'] })
    expect((await t.app.inject({ url: documentsUrl, headers: { authorization } })).statusCode).toBe(
      200,
    )
    const write = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl}/text`,
      headers: { authorization, origin: owner.headers.origin },
      payload: textDocument,
    })
    expectProblem(write, 403)
    expect(write.json()).toMatchObject({ code: 'insufficient_scope' })
  })

  it("refuses a credential whose role is below the route's minimum with 403 forbidden", async () => {
    const { authorization } = credentials.issue({ orgId: owner.orgId, role: 'member' })
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/apps`,
      headers: { authorization, origin: owner.headers.origin },
      payload: { slug: 'credential-app' },
    })
    expectProblem(res, 403)
    expect(res.json()).toMatchObject({ code: 'forbidden' })
  })
})

describe('a request without an Authorization header', () => {
  it('is the session of its cookie, with every scope', async () => {
    const member = await signedInWithRole(t, owner.orgId, 'member')
    const res = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl}/text`,
      headers: member.headers,
      payload: textDocument,
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ createdBy: member.userId })
  })
})

describe('createCredentialRegistry', () => {
  const verifier = (scheme: string, prefix: string) => ({
    scheme,
    prefix,
    verify: async () => null,
  })

  it('finds the verifier by scheme (any case) and token prefix', () => {
    const keys = verifier('Bearer', 'lxk_')
    const tokens = verifier('Bearer', 'lxt_')
    const registry = createCredentialRegistry([keys, tokens])
    expect(registry.verifierFor('bearer lxt_abc')).toEqual({ verifier: tokens, token: 'lxt_abc' })
    expect(registry.verifierFor('Bearer lxk_abc')?.verifier).toBe(keys)
    expect(registry.verifierFor('Bearer other_abc')).toBeNull()
    expect(registry.verifierFor('Token lxk_abc')).toBeNull()
    expect(registry.verifierFor('Bearer lxk_a b')).toBeNull()
  })

  it('refuses at start-up two prefixes of one scheme of which one starts the other', () => {
    expect(() =>
      createCredentialRegistry([verifier('Bearer', 'lxk_'), verifier('bearer', 'lxk_admin_')]),
    ).toThrow(/overlap/)
    expect(() => createCredentialRegistry([verifier('Bearer', 'lx')])).toThrow(/too short/)
    expect(() =>
      createCredentialRegistry([verifier('Bearer', 'lxk_'), verifier('Token', 'lxk_')]),
    ).not.toThrow()
  })
})

describe('resolvePrincipal', () => {
  /** A resolver whose session lookups answer `u-1`, a member of every organisation. */
  function resolverWithSession() {
    const looked: string[] = []
    const resolve = principalResolver({
      auth: {} as never,
      db: {} as never,
      cache: {
        userIdFor: async () => {
          looked.push('session')
          return 'u-1'
        },
        roleFor: async () => 'member',
        cachedUserId: () => undefined,
        cachedRole: () => undefined,
        revokeAll: () => {},
        forgetAll: () => {},
      },
      credentials: createCredentialRegistry([credentials.verifier]),
    })
    return { resolve, looked }
  }
  const request = (headers: Record<string, string>) =>
    ({
      headers: { cookie: 'lexdesk.session_token=t.s', ...headers },
      params: { orgId: 'o-1' },
    }) as never

  it('gives a session no credential, every scope and no app', async () => {
    const { resolve } = resolverWithSession()
    expect(await resolve(request({}))).toEqual({
      orgId: 'o-1',
      userId: 'u-1',
      role: 'member',
      actorType: 'user',
      credentialId: null,
      scopes: SCOPES,
      appId: null,
    })
  })

  it("gives a credential's principal its id, scopes and app, and never looks at the session", async () => {
    const { resolve, looked } = resolverWithSession()
    const issued = credentials.issue({ orgId: 'o-1', scopes: ['read'], appId: 'app-1' })
    expect(await resolve(request({ authorization: issued.authorization }))).toEqual({
      orgId: 'o-1',
      userId: null,
      role: 'member',
      actorType: 'api_key',
      credentialId: issued.credentialId,
      scopes: ['read'],
      appId: 'app-1',
    })
    await expect(
      resolve(request({ authorization: 'Bearer lxtest_unknown' })),
    ).rejects.toMatchObject({ status: 401 })
    expect(looked).toEqual([])
  })

  /** A resolver on a real cache whose lookups find `u-1`, a member of `o-1` only. */
  function resolverWithCache() {
    const cache = createPrincipalCache()
    const looked: string[] = []
    const auth = {
      api: {
        getSession: async () => {
          looked.push('session')
          return {
            user: { id: 'u-1' },
            session: { token: 't', expiresAt: new Date(Date.now() + 3_600_000) },
          }
        },
      },
    }
    const resolve = principalResolver({
      auth: auth as never,
      db: {} as never,
      cache: {
        ...cache,
        roleFor: (userId, orgId) =>
          cache.roleFor(userId, orgId, async () => {
            looked.push(`role ${orgId}`)
            return orgId === 'o-1' ? 'member' : null
          }),
      },
      credentials: createCredentialRegistry([credentials.verifier]),
    })
    return { resolve, looked, cache }
  }
  const sessionRequest = (orgId: string) =>
    ({ headers: { cookie: 'better-auth.session_token=t.s' }, params: { orgId } }) as never

  it('answers a cached session and role at once (no promise), the same principal as its lookups gave', async () => {
    const { resolve, looked } = resolverWithCache()
    const first = resolve(sessionRequest('o-1'))
    expect(first).toBeInstanceOf(Promise)
    const looked_up = await first
    const cached = resolve(sessionRequest('o-1'))
    expect(cached).not.toBeInstanceOf(Promise)
    expect(cached).toEqual(looked_up)
    expect(looked).toEqual(['session', 'role o-1'])
  })

  it('still looks up a role not cached for this organisation, and a non-member gets the 404', async () => {
    const { resolve, looked } = resolverWithCache()
    await resolve(sessionRequest('o-1'))
    const other = resolve(sessionRequest('o-2'))
    expect(other).toBeInstanceOf(Promise)
    await expect(other).rejects.toMatchObject({ status: 404 })
    expect(looked).toEqual(['session', 'role o-1', 'role o-2'])
  })

  it('looks up again after a revocation instead of answering from the cache', async () => {
    const { resolve, looked, cache } = resolverWithCache()
    await resolve(sessionRequest('o-1'))
    cache.revokeAll()
    const after = resolve(sessionRequest('o-1'))
    expect(after).toBeInstanceOf(Promise)
    await after
    expect(looked).toEqual(['session', 'role o-1', 'session', 'role o-1'])
  })
})
