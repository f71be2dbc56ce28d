import { describe, expect, it } from 'vitest'
import {
  testAppForFile,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'

const t = await testAppForFile()

const appsUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/apps`

function createApp(m: TestMember, slug: string) {
  return t.app.inject({ method: 'POST', url: appsUrl(m), headers: m.headers, payload: { slug } })
}

describe('apps API', () => {
  it('refuses to let a member create an app (403 problem) and creates nothing', async () => {
    const owner = await signedInMember(t, 'Apps Firm')
    const member = await signedInWithRole(t, owner.orgId, 'member')
    const res = await createApp(member, 'intake')
    expect(res.statusCode).toBe(403)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'forbidden', status: 403 })
    const list = await t.app.inject({ url: appsUrl(member), headers: member.headers })
    expect(list.json()).toEqual({ items: [], total: 0 })
  })

  it('lets an admin create an app that every member then sees', async () => {
    const owner = await signedInMember(t, 'Apps Firm')
    const [admin, member] = [
      await signedInWithRole(t, owner.orgId, 'admin'),
      await signedInWithRole(t, owner.orgId, 'member'),
    ]
    const res = await createApp(admin, 'Litigation')
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ slug: 'litigation', orgId: owner.orgId })
    const list = await t.app.inject({ url: appsUrl(member), headers: member.headers })
    expect(list.json().items.map((a: { slug: string }) => a.slug)).toEqual(['litigation'])
  })

  it('answers a second app with the same slug with a 409 problem', async () => {
    const owner = await signedInMember(t, 'Apps Firm')
    expect((await createApp(owner, 'billing')).statusCode).toBe(201)
    const again = await createApp(owner, 'billing')
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'app_exists' })
  })
})
