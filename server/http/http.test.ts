import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import SwaggerParser from '@apidevtools/swagger-parser'
import { buildTestApp, type TestApp } from '../test/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
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
})
