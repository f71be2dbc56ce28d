/**
 * An app-bound credential (a tenant token or API key bound to app A) and the organisation's
 * routes (decision 0136, amended): the audit log has no app, so it once answered app B's
 * `document.create` and its title to a credential of app A (list and CSV export alike); now
 * refused 403 `outside_app_scope` by the guard, as creating an app and the storage buckets are,
 * while `listApps` shows it its own app only. The walk (server/auth/route-roles.test.ts) checks
 * the refusal on every route declared `app: 'organisation'`; this file reproduces the leak.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember } from '../../test/test-app'
import { mintToken } from '../../test/mint-token'
import { appOf } from '../../test/app-of'
import { ORGANISATION_ONLY_DETAIL } from '../../auth/route-roles'

const t = await buildTestApp()
afterAll(() => t.close())

const owner = await signedInMember(t, 'Reach Firm')
const appA = await appOf(t, owner, 'reach-a')
const appB = await appOf(t, owner, 'reach-b')
const secretTitle = 'Merger of Northwind into B only'
const created = await t.app.inject({
  method: 'POST',
  url: `/api/v1/orgs/${owner.orgId}/documents/text`,
  headers: owner.headers,
  payload: { title: secretTitle, content: 'Only for app B.', appId: appB },
})
expect(created.statusCode, created.body).toBe(201)

const token = (await mintToken(t, owner, { app_id: appA, scope: 'read write admin' })).token
const keyRes = await t.app.inject({
  method: 'POST',
  url: `/api/v1/orgs/${owner.orgId}/api-keys`,
  headers: owner.headers,
  payload: { name: 'App A key', scopes: 'read,write,admin', appId: appA },
})
expect(keyRes.statusCode, keyRes.body).toBe(201)
const key = (keyRes.json() as { key: string }).key

const credentials = [
  ['a tenant token', { authorization: `Bearer ${token}` }],
  ['an API key', { 'x-api-key': key }],
] as const

const url = (path: string) => `/api/v1/orgs/${owner.orgId}${path}`

describe.each(credentials)('%s bound to app A', (_, headers) => {
  it.each(['/audit', '/audit/export'])(
    "is refused the organisation's audit log (%s), never shown app B's rows",
    async (path) => {
      const res = await t.app.inject({ url: url(path), headers })
      expect(res.statusCode, res.body).toBe(403)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json()).toMatchObject({
        code: 'outside_app_scope',
        detail: ORGANISATION_ONLY_DETAIL,
      })
      expect(res.body).not.toContain(secretTitle)
    },
  )

  it('cannot create an app, which would widen its reach', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: url('/apps'),
      headers,
      payload: { slug: `widened-${Date.now()}` },
    })
    expect(res.statusCode, res.body).toBe(403)
    expect(res.json()).toMatchObject({ code: 'outside_app_scope' })
  })

  it('lists its own app only', async () => {
    const res = await t.app.inject({ url: url('/apps'), headers })
    expect(res.statusCode, res.body).toBe(200)
    const page = res.json() as { items: { id: string }[]; total: number }
    expect(page.items.map((app) => app.id)).toEqual([appA])
    expect(page.total).toBe(1)
  })

  it("is refused the organisation's storage buckets", async () => {
    const res = await t.app.inject({ url: url('/storage/buckets'), headers })
    expect(res.statusCode, res.body).toBe(403)
    expect(res.json()).toMatchObject({ code: 'outside_app_scope' })
  })

  it('still reads its own app', async () => {
    const res = await t.app.inject({ url: url(`/documents?appId=${appA}`), headers })
    expect(res.statusCode, res.body).toBe(200)
  })
})

describe('an organisation-wide principal', () => {
  it("reads the whole audit log and every app, app B's document included", async () => {
    const audit = await t.app.inject({ url: url('/audit'), headers: owner.headers })
    expect(audit.statusCode, audit.body).toBe(200)
    expect(audit.body).toContain(secretTitle)
    const apps = await t.app.inject({ url: url('/apps'), headers: owner.headers })
    const ids = (apps.json() as { items: { id: string }[] }).items.map((app) => app.id)
    expect(ids).toEqual(expect.arrayContaining([appA, appB]))
  })
})
