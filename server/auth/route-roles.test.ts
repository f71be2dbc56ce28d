/**
 * The authorisation walk: every operation of the OpenAPI document, read at test time, so a route
 * added later is covered without editing this file. For each operation with `x-min-role`:
 * no credentials → 401, a bad Authorization credential beside a valid session cookie → 401, a
 * signed-in user of another organisation → 404, each role below the minimum → 403, a credential
 * lacking the operation's `x-scope` → 403, each role from the minimum up → admitted; with
 * real API keys made through the API by the owner: a key of each scope admitted exactly where
 * its scope is the one the operation needs (`requiredScope` of `x-min-role` and `x-scope`; never
 * on owner or `x-session-only` routes), else 403; a key of another organisation → 404; a revoked
 * key → 401; and, in a block of its own, an expired or a tampered tenant token → 401, a token of
 * one app reading another app's document, or another app's job where a credential is admitted
 * (decision 0125), → 404, and one naming another app wherever an operation's input names an app
 * (a query parameter, a JSON body property or a multipart field: Operation.appFields) → 404
 * `app_not_found`; and, on every operation a credential may call, a token of one app (every
 * scope) refused 403 `outside_app_scope` by the guard exactly where `x-app-reach` is
 * `organisation` (decision 0136, amended), and served by it elsewhere. An operation without
 * `x-min-role`, `x-scope` and `x-app-reach`
 * fails unless it is one of the few public ones listed here.
 */
import { readFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  TEST_SECRET,
  type TestMember,
} from '../test/test-app'
import { createTestCredentials } from '../test/test-credentials'
import {
  operationRequests,
  readOperations,
  type Operation,
  type WalkRequest,
} from '../test/operation-walk'
import { ROLES, type Role } from '../db/roles'
import Fastify, { type FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { rateLimitPluginOptions } from './api-rate-limits'
import {
  APP_REACH_EXTENSION,
  APP_REACHES,
  credentialsAdmitted,
  declareRouteRoles,
  MIN_ROLE_EXTENSION,
  ORGANISATION_ONLY_DETAIL,
  requiredScope,
  SCOPE_EXTENSION,
} from './route-roles'
import { METHOD_SCOPES, SCOPES, type MethodScope, type Scope } from './scopes'
import { SECURITY_SCHEMES } from './openapi-security'
import { tenantTokenJwt } from './tenant-token-jwt'
import { mintToken } from '../test/mint-token'
import { appOf } from '../test/app-of'
import { jobs } from '../db/schema'

/** Operations anyone may call without signing in (health probes). */
const PUBLIC_OPERATIONS = new Set(['health', 'ready'])

const credentials = createTestCredentials()
const t = await buildTestApp({ credentialVerifiers: [credentials.verifier] })
afterAll(() => t.close())

const owner = await signedInMember(t, 'Walk Firm')
const members: Record<Role, TestMember> = {
  owner,
  admin: await signedInWithRole(t, owner.orgId, 'admin'),
  member: await signedInWithRole(t, owner.orgId, 'member'),
}
const outsider = await signedInMember(t, 'Outside Firm')

const operations: Operation[] = await readOperations(t)
const { requestFor } = operationRequests(t, owner)

/** A real API key made through the API by `by` (an owner) with `scopes`; answers the secret. */
async function apiKey(by: TestMember, scopes: string): Promise<{ id: string; key: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${by.orgId}/api-keys`,
    headers: by.headers,
    payload: { name: `Walk ${scopes}`, scopes },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; key: string }
}
const keys = Object.fromEntries(
  await Promise.all(SCOPES.map(async (scope) => [scope, (await apiKey(owner, scope)).key])),
) as Record<Scope, string>
const foreignKey = (await apiKey(outsider, SCOPES.join(','))).key
const revokedKey = await apiKey(owner, SCOPES.join(','))
const revoked = await t.app.inject({
  method: 'DELETE',
  url: `/api/v1/orgs/${owner.orgId}/api-keys/${revokedKey.id}`,
  headers: owner.headers,
})
expect(revoked.statusCode).toBe(204)

function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown> },
  status: number,
) {
  expect(res.statusCode).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
}

describe.each(operations)('$operationId ($method $path)', (op) => {
  if (PUBLIC_OPERATIONS.has(op.operationId)) {
    it('answers without credentials, and its document asks for none', async () => {
      const res = await t.app.inject({ method: op.method as 'GET', url: op.path })
      expect(res.statusCode).toBeLessThan(300)
      expect(op.security).toEqual([])
    })
    return
  }

  it(`declares its minimum role as ${MIN_ROLE_EXTENSION} and its scope as ${SCOPE_EXTENSION}`, () => {
    expect(ROLES, `${op.operationId} has no valid ${MIN_ROLE_EXTENSION}`).toContain(op.minRole)
    expect(METHOD_SCOPES, `${op.operationId} has no valid ${SCOPE_EXTENSION}`).toContain(op.scope)
    expect(APP_REACHES, `${op.operationId} has no valid ${APP_REACH_EXTENSION}`).toContain(
      op.appReach,
    )
  })
  if (!ROLES.includes(op.minRole as Role) || !METHOD_SCOPES.includes(op.scope as MethodScope))
    return
  const minRole = op.minRole as Role
  const rank = ROLES.indexOf(minRole)
  // The scope a credential needs here, by the guard's one mapping (read/write, admin routes admin).
  const needed = requiredScope(minRole, op.scope as MethodScope)

  it('answers 401 without credentials', async () => {
    const { request } = await requestFor(op, owner)
    const res = await t.app.inject({ ...request, headers: { origin: owner.headers.origin } })
    expectProblem(res, 401)
  })

  it('answers 401 to a bad credential, never falling back to the session cookie beside it', async () => {
    const { request } = await requestFor(op, owner)
    const res = await t.app.inject({
      ...request,
      headers: { ...owner.headers, authorization: 'Bearer lxtest_not-issued' },
    })
    expectProblem(res, 401)
    expect(res.json()).toMatchObject({ code: 'unauthenticated' })
  })

  it(`answers 403 to a credential without the ${needed} scope`, async () => {
    const { request } = await requestFor(op, owner)
    const { authorization } = credentials.issue({
      orgId: owner.orgId,
      userId: owner.userId,
      role: 'owner',
      scopes: SCOPES.filter((scope) => scope !== needed),
    })
    const res = await t.app.inject({
      ...request,
      headers: { authorization, origin: owner.headers.origin },
    })
    expectProblem(res, 403)
    expect(res.json()).toMatchObject({ code: 'insufficient_scope' })
  })

  it('answers 404 to a member of another organisation, as if it did not exist', async () => {
    const { request } = await requestFor(op, owner)
    const res = await t.app.inject({ ...request, headers: outsider.headers })
    expectProblem(res, 404)
    expect(res.json()).toMatchObject({ code: 'organization_not_found' })
    expect(res.body).not.toContain('Walk')
  })

  it.each(ROLES.slice(0, rank))('answers 403 to the %s role', async (role) => {
    const { request } = await requestFor(op, members[role])
    const res = await t.app.inject({ ...request, headers: members[role].headers })
    expectProblem(res, 403)
    expect(res.json()).toMatchObject({ code: 'forbidden' })
  })

  // What the document promises a credential (its `security`), tested against what the route does.
  const promised = (scheme: string, scope: Scope): boolean =>
    Array.isArray(op.security) &&
    op.security.some((requirement: Record<string, unknown>) => {
      const scopes = requirement[scheme]
      return Array.isArray(scopes) && scopes.length === 1 && scopes[0] === scope
    })

  it('declares in its security the session, and a credential with the scope it needs where one is admitted', () => {
    expect(op.security).toContainEqual({ [SECURITY_SCHEMES.session]: [] })
    for (const scope of SCOPES) {
      const admitted = scope === needed && credentialsAdmitted(minRole, op.sessionOnly)
      expect(promised(SECURITY_SCHEMES.bearer, scope), `Bearer ${scope}`).toBe(admitted)
      expect(promised(SECURITY_SCHEMES.apiKeyHeader, scope), `x-api-key ${scope}`).toBe(admitted)
    }
    expect(op.requiredScope).toBe(needed)
  })

  it.each(SCOPES)(
    'admits a real %s key as Bearer exactly where its document promises it',
    async (scope) => {
      const { request, exact } = await requestFor(op, owner)
      const res = await t.app.inject({
        ...request,
        headers: { authorization: `Bearer ${keys[scope]}`, origin: owner.headers.origin },
      })
      if (promised(SECURITY_SCHEMES.bearer, scope)) {
        expect([401, 403, 404], res.body).not.toContain(res.statusCode)
        expect(res.statusCode, res.body).toBeLessThan(500)
        if (exact) expect(res.statusCode, res.body).toBeLessThan(300)
      } else {
        expectProblem(res, 403)
      }
    },
  )

  it('admits the key its document promises as x-api-key', async () => {
    const { request, exact } = await requestFor(op, owner)
    const res = await t.app.inject({
      ...request,
      headers: { 'x-api-key': keys[needed], origin: owner.headers.origin },
    })
    if (promised(SECURITY_SCHEMES.apiKeyHeader, needed)) {
      expect([401, 403, 404], res.body).not.toContain(res.statusCode)
      expect(res.statusCode, res.body).toBeLessThan(500)
      if (exact) expect(res.statusCode, res.body).toBeLessThan(300)
    } else {
      expectProblem(res, 403)
    }
  })

  it('answers 404 to a real key of another organisation', async () => {
    const { request } = await requestFor(op, owner)
    const res = await t.app.inject({ ...request, headers: { 'x-api-key': foreignKey } })
    expectProblem(res, 404)
    expect(res.json()).toMatchObject({ code: 'organization_not_found' })
  })

  it('answers 401 invalid_token to a revoked key', async () => {
    const { request } = await requestFor(op, owner)
    const res = await t.app.inject({
      ...request,
      headers: { authorization: `Bearer ${revokedKey.key}` },
    })
    expectProblem(res, 401)
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })

  it.each(ROLES.slice(rank))('admits the %s role', async (role) => {
    const { request, exact } = await requestFor(op, members[role])
    const res = await t.app.inject({ ...request, headers: members[role].headers })
    expect([401, 403, 404], res.body).not.toContain(res.statusCode)
    expect(res.statusCode, res.body).toBeLessThan(500)
    if (exact) expect(res.statusCode, res.body).toBeLessThan(300)
  })
})

/** Dependencies the guard never reaches when the app fails to start. */
const NO_DEPS = {
  auth: {} as never,
  db: {} as never,
  principals: {} as never,
  credentials: {} as never,
  rateLimits: { readsPerMinute: 1, writesPerMinute: 1, keyRequestsPerMinute: 1 },
}

/** Starts (and closes) an app whose `/api/v1` scope holds the routes `declare` adds. */
async function startApi(declare: (api: FastifyInstance) => void): Promise<void> {
  const app = Fastify()
  await app.register(rateLimit, rateLimitPluginOptions())
  try {
    await app
      .register(
        async (api) => {
          declareRouteRoles(api, NO_DEPS)
          declare(api)
        },
        { prefix: '/api/v1' },
      )
      .ready()
  } finally {
    await app.close()
  }
}

describe('route registration', () => {
  it('guards the HEAD twin Fastify adds to each GET route', async () => {
    const url = `/api/v1/orgs/${owner.orgId}/documents`
    expect((await t.app.inject({ method: 'HEAD', url })).statusCode).toBe(401)
    const outside = await t.app.inject({ method: 'HEAD', url, headers: outsider.headers })
    expect(outside.statusCode).toBe(404)
    const inside = await t.app.inject({ method: 'HEAD', url, headers: members.member.headers })
    expect(inside.statusCode).toBe(200)
  })

  it('refuses to start with an /api/v1 route that declares no minimum role', async () => {
    await expect(startApi((api) => api.get('/orgs/:orgId/things', () => ({})))).rejects.toThrow(
      /GET \/api\/v1\/orgs\/:orgId\/things must declare config.minRole/,
    )
  })

  it('refuses to start with an unknown scope, or none on a route both reading and writing', async () => {
    await expect(
      startApi((api) =>
        api.post(
          '/orgs/:orgId/things',
          { config: { minRole: 'member', scope: 'everything' as never } },
          () => ({}),
        ),
      ),
    ).rejects.toThrow(/POST \/api\/v1\/orgs\/:orgId\/things must declare config.scope/)
    await expect(
      startApi((api) =>
        api.route({
          method: ['GET', 'POST'],
          url: '/orgs/:orgId/things',
          config: { minRole: 'member' },
          handler: () => ({}),
        }),
      ),
    ).rejects.toThrow(/must declare config.scope/)
  })

  it('refuses to start with an unknown app reach', async () => {
    await expect(
      startApi((api) =>
        api.get(
          '/orgs/:orgId/things',
          { config: { minRole: 'member', app: 'everywhere' as never } },
          () => ({}),
        ),
      ),
    ).rejects.toThrow(/GET \/api\/v1\/orgs\/:orgId\/things declares an unknown config.app/)
  })
})

describe('docs/authorization.md', () => {
  /**
   * The route table's rows as `METHOD path operationId role scope app-bound`, one per operation
   * named.
   */
  async function documentedOperations(): Promise<string[]> {
    const doc = await readFile(new URL('../../docs/authorization.md', import.meta.url), 'utf8')
    return doc
      .split('\n')
      .filter((line) => /^\| (GET|POST|PUT|PATCH|DELETE) /.test(line))
      .flatMap((line) => {
        const [method, paths, ids, role, scope, appBound] = line
          .split('|')
          .slice(1, 7)
          .map((cell) => cell.trim())
        const ticked = (cell = '') => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1])
        const pathList = ticked(paths)
        return ticked(ids).map(
          (id, i) => `${method} ${pathList[i]} ${id} ${role} ${scope} ${appBound}`,
        )
      })
  }

  it('lists every operation of the OpenAPI document once, with its minimum role, scope and app reach', async () => {
    /** The "app-bound" cell: what a credential bound to one app gets there. */
    const appBound = (op: Operation): string => {
      if (!credentialsAdmitted(op.minRole as Role, op.sessionOnly)) return '—'
      return op.appReach === 'organisation' ? 'refused' : 'its app'
    }
    const expected = operations
      .filter((op) => op.method !== 'HEAD')
      .map((op) => {
        const isPublic = PUBLIC_OPERATIONS.has(op.operationId)
        const role = isPublic ? 'public' : String(op.minRole)
        const scope = isPublic ? 'public' : String(op.scope)
        const app = isPublic ? 'public' : appBound(op)
        return `${op.method} ${op.path} ${op.operationId} ${role} ${scope} ${app}`
      })
    const documented = await documentedOperations()
    expect(documented.filter((row, i) => documented.indexOf(row) !== i)).toEqual([])
    expect([...documented].sort()).toEqual([...expected].sort())
  })
})

describe('tenant tokens in the walk (decision 0048)', async () => {
  const jwt = tenantTokenJwt(TEST_SECRET)
  const mintAs = (body: Record<string, unknown> = {}) => mintToken(t, owner, body)
  const { token, claims } = await mintAs()
  const expired = await jwt.sign({ ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600 })
  const [head, , signature] = token.split('.')
  const forged = Buffer.from(
    JSON.stringify({ ...claims, exp: claims.exp + 86_400, scope: 'read write admin' }),
  ).toString('base64url')
  const tampered = `${head}.${forged}.${signature}`

  const appA = await appOf(t, owner, 'walk-a')
  const appB = await appOf(t, owner, 'walk-b')
  const otherAppsDocument = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${owner.orgId}/documents/text`,
    headers: owner.headers,
    payload: { title: 'Walk app B', content: 'Only for app B.', appId: appB },
  })
  expect(otherAppsDocument.statusCode).toBe(201)
  const documentOfB = (otherAppsDocument.json() as { id: string }).id
  // A job on app B's document, not to run before tomorrow (the app's runner leaves it queued).
  const [jobRow] = await t.database.db
    .insert(jobs)
    .values({
      orgId: owner.orgId,
      kind: 'document-passages',
      input: { documentId: documentOfB },
      subjectId: documentOfB,
      createdBy: owner.userId,
      runAfter: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: jobs.id })
  const jobOfB = jobRow!.id
  const appScoped = (await mintAs({ app_id: appA })).token
  // Every scope, so that only the app it names can be what refuses it.
  const appAdmin = (await mintAs({ app_id: appA, scope: 'read write admin' })).token

  /**
   * `request` naming app B under `field` (in its query, JSON body or multipart form) and app A,
   * the token's own, in every other query parameter and JSON property of `op` that names an app,
   * so that only `field` can be what refuses it (an import into no app is refused otherwise).
   */
  const namingAppB = (
    op: Operation,
    request: WalkRequest['request'],
    field: Operation['appFields'][number],
  ): WalkRequest['request'] => {
    const appOf = (other: Operation['appFields'][number]) =>
      other.in === field.in && other.name === field.name ? appB : appA
    const inQuery = op.appFields.filter((other) => other.in === 'query')
    const query = inQuery.map((other) => `${other.name}=${appOf(other)}`).join('&')
    const url = query
      ? `${request.url}${request.url.includes('?') ? '&' : '?'}${query}`
      : request.url
    const inBody = op.appFields.filter((other) => other.in === 'body')
    if (inBody.length > 0) {
      const named = Object.fromEntries(inBody.map((other) => [other.name, appOf(other)]))
      return { ...request, url, payload: { ...(request.payload as object), ...named } }
    }
    if (field.in !== 'form') return { ...request, url }
    // The field first, as a client's form would send it before the file.
    const form = new FormData()
    form.append(field.name, appB)
    for (const [name, value] of (request.payload as FormData).entries()) form.append(name, value)
    return { ...request, url, payload: form }
  }

  const guarded = operations.filter((op) => !PUBLIC_OPERATIONS.has(op.operationId))
  const send = async (op: Operation, authorization: string, url?: string) => {
    const { request } = await requestFor(op, owner)
    return t.app.inject({
      ...request,
      ...(url ? { url } : {}),
      headers: { authorization, origin: owner.headers.origin },
    })
  }

  describe.each(guarded)('$operationId ($method $path)', (op) => {
    it.each([
      ['an expired token', expired],
      ['a tampered token', tampered],
    ])('answers 401 invalid_token to %s', async (_, bad) => {
      const res = await send(op, `Bearer ${bad}`)
      expectProblem(res, 401)
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
    })

    if (op.path.includes('{documentId}')) {
      it("answers 404 to a token of one app reading another app's document", async () => {
        const { request } = await requestFor(op, owner)
        const url = request.url.replace(/\/documents\/[^/]+/, `/documents/${documentOfB}`)
        const res = await send(op, `Bearer ${appScoped}`, url)
        expectProblem(res, 404)
        expect(res.json()).toMatchObject({ code: 'document_not_found' })
      })
    }

    const admitted = credentialsAdmitted(op.minRole as Role, op.sessionOnly)
    if (admitted && op.appReach === 'organisation') {
      it('answers 403 outside_app_scope to a token of one app (every scope), before any work', async () => {
        const res = await send(op, `Bearer ${appAdmin}`)
        expectProblem(res, 403)
        expect(res.json()).toMatchObject({
          code: 'outside_app_scope',
          detail: ORGANISATION_ONLY_DETAIL,
        })
      })
    }
    if (admitted && op.appReach !== 'organisation') {
      // Its requests name organisation-wide rows, which RLS may hide (404) or refuse to write
      // (403 outside_app_scope, from the database), and the app's own rules may refuse (403
      // consent_required: the consent is the app's): only the guard's refusals are ruled out.
      it('serves a token of one app (every scope): the guard lets it through', async () => {
        const res = await send(op, `Bearer ${appAdmin}`)
        expect(res.statusCode, res.body).not.toBe(401)
        expect(res.statusCode, res.body).toBeLessThan(500)
        expect(res.body).not.toContain(ORGANISATION_ONLY_DETAIL)
        if (res.statusCode === 403) {
          const { code } = res.json() as { code: string }
          expect(['forbidden', 'insufficient_scope', 'session_required'], res.body).not.toContain(
            code,
          )
        }
      })
    }
    // An organisation-only route refuses an app-bound credential whatever app it names.
    if (admitted && op.appReach !== 'organisation' && op.appFields.length > 0) {
      it.each(op.appFields.map((field) => [`${field.in} ${field.name}`, field] as const))(
        'answers 404 app_not_found to a token of app A naming app B in its %s',
        async (_, field) => {
          const { request } = await requestFor(op, owner)
          const res = await t.app.inject({
            ...namingAppB(op, request, field),
            headers: { authorization: `Bearer ${appAdmin}`, origin: owner.headers.origin },
          })
          expectProblem(res, 404)
          expect(res.json()).toMatchObject({ code: 'app_not_found' })
        },
      )
    }

    if (op.path.includes('{jobId}') && admitted) {
      it("answers 404 to a token of one app reading another app's job", async () => {
        const { request } = await requestFor(op, owner)
        // The path's {jobId} segment, wherever the operation has it, made app B's job.
        const at = op.path.split('/').indexOf('{jobId}')
        const [path = '', query] = request.url.split('?')
        const segments = path.split('/')
        segments[at] = jobOfB
        const url = segments.join('/') + (query === undefined ? '' : `?${query}`)
        const res = await send(op, `Bearer ${appScoped}`, url)
        expectProblem(res, 404)
        expect(res.json()).toMatchObject({ code: 'job_not_found' })
      })
    }
  })
})
