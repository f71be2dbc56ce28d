import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import SwaggerParser from '@apidevtools/swagger-parser'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'
import { AppError } from '../errors/app-error'
import { ERROR_CODES, statusForCode } from '../errors/error-codes'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Header Firm')
})
afterAll(() => t.close())

describe('HTTP surface', () => {
  it('serves an OpenAPI 3.1 document that validates and names every operation', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' })
    expect(res.statusCode).toBe(200)
    const document = res.json()
    expect(document.openapi).toBe('3.1.0')
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy()
    const operations = Object.values(
      document.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap((methods) => Object.values(methods))
    expect(operations.length).toBeGreaterThan(5)
    for (const op of operations) expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/)
    // Every operation declares its errors as problems (issue 10), the health probes included.
    for (const op of operations as { responses?: Record<string, { content?: object }> }[]) {
      for (const range of ['4XX', '5XX']) {
        expect(op.responses?.[range]?.content).toHaveProperty(['application/problem+json'])
      }
    }
    expect(Object.keys(document.paths)).toContain(
      '/api/v1/orgs/{orgId}/documents/{documentId}/analyses',
    )
  })

  it('serves the API docs page', async () => {
    const res = await t.app.inject({ url: '/api/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('swagger')
  })

  it('reports health and readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' })
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({
      status: 'ready',
      workers: {
        threads: expect.any(Number),
        queued: 0,
        running: 0,
        completed: expect.any(Number),
        failed: expect.any(Number),
        recycled: expect.any(Number),
      },
    })
  })

  it('answers unknown API routes with a 404 problem and sets security headers and a request id', async () => {
    const res = await t.app.inject({ url: '/api/v1/nope', headers: { 'x-request-id': 'abc-123' } })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 404, title: 'Not Found' })
    expect(res.headers['x-request-id']).toBe('abc-123')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
  })

  it('answers a wrong method on a known path with 405, an Allow header and a problem body', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/orgs/${alice.orgId}/documents?limit=5`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(405)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(String(res.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD', 'POST'])
    expect(res.json()).toMatchObject({ status: 405, code: 'method_not_allowed' })
    const health = await t.app.inject({ method: 'DELETE', url: '/healthz' })
    expect(health.statusCode).toBe(405)
    expect(health.headers.allow).toBe('GET, HEAD')
  })

  it('answers an over-long path segment with a problem body and the security headers', async () => {
    const res = await t.app.inject({ url: `/api/v1/orgs/${'o'.repeat(5000)}/documents` })
    expect(res.statusCode).toBe(414)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json().status).toBe(res.statusCode)
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('marks tenant JSON and file downloads Cache-Control: no-store', async () => {
    const list = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents`,
      headers: alice.headers,
    })
    expect(list.statusCode).toBe(200)
    expect(list.headers['cache-control']).toBe('no-store')
    const form = new FormData()
    form.append('file', new Blob(['Engagement letter for Header Firm.']), 'letter.txt')
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents`,
      headers: alice.headers,
      payload: form,
    })
    const file = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents/${created.json().id}/file`,
      headers: alice.headers,
    })
    expect(file.statusCode).toBe(200)
    expect(file.headers['cache-control']).toBe('no-store')
  })
})

describe('error codes', () => {
  /** Asserts `res` is a problem of `status` whose code is `code`, one of ERROR_CODES. */
  function expectProblem(
    res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
    status: number,
    code: string,
  ) {
    expect(res.statusCode).toBe(status)
    expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status, code })
    expect(ERROR_CODES).toContain(code)
  }

  it("maps the framework's own errors onto codes of the closed list", async () => {
    const entities = `/api/v1/orgs/${alice.orgId}/entities`
    const post = (headers: Record<string, string>, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: entities,
        headers: { ...alice.headers, ...headers },
        payload,
      })
    const json = { 'content-type': 'application/json' }
    expectProblem(await post(json, '{"name": '), 400, 'bad_request')
    expectProblem(
      await post({ 'content-type': 'application/xml' }, '<entity/>'),
      415,
      'unsupported_media_type',
    )
    expectProblem(
      await post(json, JSON.stringify({ name: 'n', data: { text: 'x'.repeat(2_000_000) } })),
      413,
      'body_too_large',
    )
    expectProblem(await t.app.inject({ url: '/api/v1/nope' }), 404, 'route_not_found')
    expectProblem(
      await t.app.inject({ url: `/api/v1/orgs/${'o'.repeat(5000)}/documents` }),
      414,
      'path_too_long',
    )
    expectProblem(await t.app.inject({ url: '/api/v1/orgs/%E0%A4%A/documents' }), 400, 'bad_url')
  })

  it("maps better-auth's own codes onto codes of the closed list", async () => {
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: alice.headers.origin },
      payload: { email: 'not-an-address' },
    })
    expectProblem(invalid, 400, 'bad_request')
    expectProblem(await t.app.inject({ url: '/api/auth/no-such-endpoint' }), 404, 'route_not_found')
  })

  it('has no /metrics route without METRICS_TOKEN', async () => {
    expectProblem(await t.app.inject({ url: '/metrics' }), 404, 'route_not_found')
  })

  it('answers a failed readiness check with a 503 problem', async () => {
    const down = vi
      .spyOn(t.database.db, 'execute')
      .mockRejectedValueOnce(new Error('connection refused'))
    expectProblem(await t.app.inject({ url: '/readyz' }), 503, 'database_unavailable')
    down.mockRestore()
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200)
  })

  it('answers every code with its one status, a client error or a server error', () => {
    expect(new AppError('file_too_large', 'Too big.').status).toBe(413)
    expect(new AppError('engine_unavailable', 'Down.').status).toBe(503)
    for (const code of ERROR_CODES) {
      expect(statusForCode(code), code).toBeGreaterThanOrEqual(400)
      expect(statusForCode(code), code).toBeLessThan(600)
    }
  })

  it('rebuilds an AppError from its JSON form and maps an unknown code to internal_error', () => {
    const error = new AppError('too_many_pages', 'Too many pages.')
    expect(AppError.fromJSON(error.toJSON())).toMatchObject({
      code: 'too_many_pages',
      status: 413,
      detail: 'Too many pages.',
    })
    expect(
      AppError.fromJSON({ name: 'AppError', code: 'made_up', status: 500, detail: 'x' }).code,
    ).toBe('internal_error')
  })
})
