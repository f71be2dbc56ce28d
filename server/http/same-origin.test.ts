import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents } from '../db/schema'
import { uploadForm } from '../test/sample-files'
import {
  buildTestApp,
  signedInMember,
  TEST_ORIGIN,
  type TestApp,
  type TestMember,
} from '../test/test-app'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Origin Firm')
})
afterAll(() => t.close())

const documentsUrl = () => `/api/v1/orgs/${alice.orgId}/documents`
const paste = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `${documentsUrl()}/text`,
    headers: { cookie: alice.headers.cookie, ...headers },
    payload: { title: 'Referer paste', content: 'Pasted from the app itself.' },
  })

describe('cross-origin writes with the session cookie', () => {
  it('refuses a multipart upload sent from another port of the same host with a 403 problem', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: documentsUrl(),
      headers: { cookie: alice.headers.cookie, origin: 'http://localhost:9999' },
      payload: uploadForm(new TextEncoder().encode('Planted by another site.'), 'planted.txt'),
    })
    expect(res.statusCode).toBe(403)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 403, code: 'cross_origin_request' })
    const rows = await t.database.db.select({ title: documents.title }).from(documents)
    expect(rows.map((r) => r.title)).not.toContain('planted')
  })

  it('accepts a JSON paste whose only proof of origin is a matching Referer', async () => {
    const res = await paste({ referer: `${TEST_ORIGIN}/dashboard/documents` })
    expect(res.statusCode).toBe(201)
    expect(res.json().title).toBe('Referer paste')
  })

  it('refuses a write with neither Origin nor Referer, and one whose Origin is "null"', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { origin: 'null' },
      { referer: 'http://localhost:9999/x' },
    ]
    for (const headers of attempts) {
      const res = await paste(headers)
      expect(res.statusCode).toBe(403)
      expect(res.json().code).toBe('cross_origin_request')
    }
  })

  it('refuses a delete from another origin but lets reads through', async () => {
    const created = await paste({ origin: TEST_ORIGIN })
    const url = `${documentsUrl()}/${created.json().id}`
    const evil = { cookie: alice.headers.cookie, origin: 'https://attacker.example' }
    expect((await t.app.inject({ method: 'DELETE', url, headers: evil })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url, headers: evil })).statusCode).toBe(200)
  })

  it('refuses a WebSocket upgrade carrying the cookie from another origin, even as a GET', async () => {
    const upgrade = (origin: string) =>
      t.app.inject({
        method: 'GET',
        url: documentsUrl(),
        headers: { cookie: alice.headers.cookie, origin, upgrade: 'websocket' },
      })
    const refused = await upgrade('https://attacker.example')
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('cross_origin_request')
    expect((await upgrade(TEST_ORIGIN)).json().code).not.toBe('cross_origin_request')
  })

  it('leaves requests authenticated by an Authorization header to their own checks', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${documentsUrl()}/text`,
      headers: { authorization: 'Bearer not-a-real-token', origin: 'https://attacker.example' },
      payload: { title: 'x', content: 'y' },
    })
    expect(res.json().code).not.toBe('cross_origin_request')
    expect(res.statusCode).toBe(401)
  })

  it('leaves a write carrying an API key in x-api-key to the key, cookie or not', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/api-keys`,
      headers: alice.headers,
      payload: { name: 'Origin test' },
    })
    const { key } = created.json() as { key: string }
    const res = await paste({ 'x-api-key': key, origin: 'https://attacker.example' })
    expect(res.statusCode, res.body).toBe(201)
  })

  it('refuses a cross-origin organisation change through better-auth too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/organization/create',
      headers: { cookie: alice.headers.cookie, origin: 'http://localhost:9999' },
      payload: { name: 'Planted', slug: `planted-${Date.now()}` },
    })
    expect(res.statusCode).toBe(403)
  })
})
