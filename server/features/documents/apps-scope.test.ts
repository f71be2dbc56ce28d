import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apps } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { SAMPLE_CONTRACT, uploadForm } from '../../test/sample-files'

let t: TestApp
let stranger: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  stranger = await signedInMember(t, 'Other Firm')
})
afterAll(() => t.close())

const documentsUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/documents`

async function createApp(m: TestMember, slug: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/apps`,
    headers: m.headers,
    payload: { slug },
  })
  expect(res.statusCode).toBe(201)
  return res.json().id
}

function paste(m: TestMember, title: string, appId?: string) {
  return t.app.inject({
    method: 'POST',
    url: `${documentsUrl(m)}/text`,
    headers: m.headers,
    payload: { title, content: SAMPLE_CONTRACT, ...(appId ? { appId } : {}) },
  })
}

function upload(m: TestMember, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: documentsUrl(m),
    headers: m.headers,
    payload: uploadForm(new TextEncoder().encode(SAMPLE_CONTRACT), 'msa.txt', fields),
  })
}

async function titles(m: TestMember, appId?: string): Promise<string[]> {
  const query = appId ? `?appId=${appId}` : ''
  const res = await t.app.inject({ url: `${documentsUrl(m)}${query}`, headers: m.headers })
  expect(res.statusCode).toBe(200)
  return (res.json().items as { title: string }[]).map((d) => d.title)
}

describe('documents in apps (decision 8)', () => {
  it('files documents under an app and lists one app or the whole organisation', async () => {
    const owner = await signedInMember(t, 'Scoped Firm')
    const litigation = await createApp(owner, 'litigation')
    const filed = await paste(owner, 'Filed MSA', litigation)
    expect(filed.statusCode).toBe(201)
    expect(filed.json().appId).toBe(litigation)
    expect((await paste(owner, 'Firm-wide NDA')).json().appId).toBeNull()
    const uploaded = await upload(owner, { title: 'Uploaded lease', appId: litigation })
    expect(uploaded.statusCode).toBe(201)
    expect(uploaded.json().appId).toBe(litigation)

    expect(await titles(owner, litigation)).toEqual(['Uploaded lease', 'Filed MSA'])
    expect(await titles(owner)).toEqual(['Uploaded lease', 'Firm-wide NDA', 'Filed MSA'])
    const page = await t.app.inject({
      url: `${documentsUrl(owner)}?appId=${litigation}`,
      headers: owner.headers,
    })
    expect(page.json()).toMatchObject({ total: 2, items: [{ appId: litigation }, {}] })
  })

  it("answers another organisation's app with a 404 problem and stores nothing", async () => {
    const owner = await signedInMember(t, 'Scoped Firm')
    const theirs = await createApp(stranger, 'theirs')
    const before = await titles(owner)
    const pasted = await paste(owner, 'Misfiled memo', theirs)
    expect(pasted.statusCode).toBe(404)
    expect(pasted.json()).toMatchObject({ code: 'app_not_found', status: 404 })
    const uploaded = await upload(owner, { appId: theirs })
    expect(uploaded.statusCode).toBe(404)
    expect(uploaded.json()).toMatchObject({ code: 'app_not_found' })
    expect(await titles(owner)).toEqual(before)
    expect(await titles(stranger)).toEqual([])
  })

  it('refuses a malformed app id with a 400 problem', async () => {
    const owner = await signedInMember(t, 'Scoped Firm')
    expect((await paste(owner, 'Memo', 'not-a-uuid')).statusCode).toBe(400)
    const uploaded = await upload(owner, { appId: 'not-a-uuid' })
    expect(uploaded.statusCode).toBe(400)
    expect(uploaded.json()).toMatchObject({ code: 'validation_failed' })
    const listed = await t.app.inject({
      url: `${documentsUrl(owner)}?appId=nope`,
      headers: owner.headers,
    })
    expect(listed.statusCode).toBe(400)
  })

  it("returns an app's documents to the organisation when the app is deleted", async () => {
    const owner = await signedInMember(t, 'Scoped Firm')
    const tax = await createApp(owner, 'tax')
    const doc = (await paste(owner, 'Tax opinion', tax)).json()
    await withTenant(t.database.db, owner, (tx) => tx.delete(apps).where(eq(apps.id, tax)))
    const read = await t.app.inject({
      url: `${documentsUrl(owner)}/${doc.id}`,
      headers: owner.headers,
    })
    expect(read.statusCode).toBe(200)
    expect(read.json()).toMatchObject({ title: 'Tax opinion', appId: null })
  })
})
