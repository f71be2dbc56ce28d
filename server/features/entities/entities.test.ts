import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  testAppForFile,
  aliceAndMallory,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { uploadForm } from '../../test/sample-files'
import { finishedJob as waitForJob } from '../../test/finished-job'
import { withTenant } from '../../db/tenant'
import { entities } from '../../db/schema'

const t = await testAppForFile()
const { alice, mallory } = await aliceAndMallory(t, 'Entities Firm', 'Other Firm')

const url = (m: TestMember, rest = '') => `/api/v1/orgs/${m.orgId}/entities${rest}`

async function create(m: TestMember, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: url(m), headers: m.headers, payload: body })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; name: string; type: string; data: Record<string, unknown> }
}

async function list(m: TestMember, query = '') {
  const res = await t.app.inject({ url: url(m, query), headers: m.headers })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as {
    items: { id: string; name: string; type: string; data: unknown }[]
    total: number
  }
}

async function importCsv(m: TestMember, csv: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: url(m, '/import'),
    headers: m.headers,
    payload: uploadForm(new TextEncoder().encode(csv), 'entities.csv'),
  })
  return res
}

const finishedJob = (m: TestMember, jobId: string) => waitForJob(t, m, jobId)

describe('entities API', () => {
  it('creates an entity with defaults and lists it newest first with an exact count', async () => {
    const m = await signedInMember(t, 'Fresh Firm')
    const first = await create(m, { name: 'Acme Corp' })
    expect(first).toMatchObject({ name: 'Acme Corp', type: 'item', data: {}, orgId: m.orgId })
    const second = await create(m, { name: 'Beta LLP', type: 'customer', data: { tier: 2 } })
    const page = await list(m)
    expect(page.total).toBe(2)
    expect(page.items.map((e) => e.id)).toEqual([second.id, first.id])
  })

  it('searches name or type case-insensitively, filters type exactly and pages with the total', async () => {
    const m = await signedInMember(t, 'Search Firm')
    await create(m, { name: 'Northwind Traders', type: 'customer' })
    await create(m, { name: 'Contoso', type: 'lead' })
    await create(m, { name: 'Fabrikam', type: 'customers-archive' })
    const byName = await list(m, '?q=NORTH')
    expect(byName.items.map((e) => e.name)).toEqual(['Northwind Traders'])
    const byType = await list(m, '?q=custom')
    expect(byType.total).toBe(2)
    const exact = await list(m, '?type=customer')
    expect(exact).toMatchObject({ total: 1 })
    expect(exact.items.map((e) => e.name)).toEqual(['Northwind Traders'])
    const paged = await list(m, '?sort=name:asc&limit=2&offset=2')
    expect(paged).toMatchObject({ total: 3 })
    expect(paged.items.map((e) => e.name)).toEqual(['Northwind Traders'])
  })

  it('lists the one entity an id names (a link to it), another organisation’s none', async () => {
    const m = await signedInMember(t, 'Linked Firm')
    const wanted = await create(m, { name: 'Linked client' })
    await create(m, { name: 'Other client' })
    const one = await list(m, `?id=${wanted.id}`)
    expect(one).toMatchObject({ total: 1 })
    expect(one.items.map((e) => e.id)).toEqual([wanted.id])
    expect(await list(mallory, `?id=${wanted.id}`)).toMatchObject({ total: 0, items: [] })
    const malformed = await t.app.inject({ url: url(m, '?id=nope'), headers: m.headers })
    expect(malformed.statusCode).toBe(400)
  })

  it('sorts by a list of columns, including a key inside data, in the given order', async () => {
    const m = await signedInMember(t, 'Sort Firm')
    await create(m, { name: 'b', type: 'x', data: { rank: 10 } })
    await create(m, { name: 'a', type: 'y', data: { rank: 9 } })
    await create(m, { name: 'c', type: 'x', data: { rank: 2 } })
    await create(m, { name: 'd', type: 'y' })
    expect((await list(m, '?sort=type:asc,name:desc')).items.map((e) => e.name)).toEqual([
      'c',
      'b',
      'd',
      'a',
    ])
    // Numbers in data sort numerically (2 < 9 < 10); rows without the key come last.
    expect((await list(m, '?sort=data.rank:asc')).items.map((e) => e.name)).toEqual([
      'c',
      'a',
      'b',
      'd',
    ])
  })

  it('answers an unknown or malformed sort key with a 400 problem and runs no SQL from it', async () => {
    for (const sort of [
      'password:asc',
      'name:up',
      'name;drop table entities:asc',
      '(select 1):asc',
      'name:asc,name:desc',
      // Names every JavaScript object inherits are not columns either.
      'constructor:asc',
      '__proto__:asc',
      'toString:desc',
      'hasOwnProperty:asc',
    ]) {
      const res = await t.app.inject({
        url: url(alice, `?sort=${encodeURIComponent(sort)}`),
        headers: alice.headers,
      })
      expect(res.statusCode, sort).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json()).toMatchObject({ code: 'bad_sort_key' })
    }
  })

  it('treats SQL-looking search text and data keys as plain text', async () => {
    const m = await signedInMember(t, 'Injection Firm')
    await create(m, { name: "Robert'); DROP TABLE entities;--" })
    await create(m, { name: '100% _match_' })
    expect((await list(m, `?q=${encodeURIComponent("'); DROP TABLE")}`)).total).toBe(1)
    expect((await list(m, `?q=${encodeURIComponent('%')}`)).items.map((e) => e.name)).toEqual([
      '100% _match_',
    ])
    const sortByOddKey = await list(m, `?sort=${encodeURIComponent("data.x') desc; --:asc")}`)
    expect(sortByOddKey.total).toBe(2)
    expect((await list(m)).total).toBe(2)
  })

  it('updates only the fields sent and audits the change', async () => {
    const e = await create(alice, { name: 'Old name', type: 'lead', data: { a: 1 } })
    const res = await t.app.inject({
      method: 'PATCH',
      url: url(alice, `/${e.id}`),
      headers: alice.headers,
      payload: { data: { a: 2, note: 'say "hi", ok' } },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      name: 'Old name',
      type: 'lead',
      data: { a: 2, note: 'say "hi", ok' },
    })
    const audit = await t.database.db.execute(
      sql`select action from audit_logs where target_id = ${e.id} order by created_at`,
    )
    expect((audit as unknown as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual([
      'entity.create',
      'entity.update',
    ])
    const events = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/events?kind=entity.updated`,
      headers: alice.headers,
    })
    expect(events.json().items.map((i: { meta: unknown }) => i.meta)).toContainEqual({
      entityId: e.id,
      fields: ['data'],
    })
  })

  it('refuses data that is not a JSON object and an empty patch with 400 problems', async () => {
    const e = await create(alice, { name: 'Shape' })
    for (const payload of [{ data: [1, 2] }, { data: 'text' }, {}]) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: url(alice, `/${e.id}`),
        headers: alice.headers,
        payload,
      })
      expect(res.statusCode).toBe(400)
    }
  })

  it('answers a malformed entity id with a 400 problem and a missing one with 404', async () => {
    const bad = await t.app.inject({
      method: 'DELETE',
      url: url(alice, '/not-a-uuid'),
      headers: alice.headers,
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().detail).toMatch(/Entity id must be a UUID/)
    const missing = await t.app.inject({
      method: 'DELETE',
      url: url(alice, '/00000000-0000-4000-8000-000000000000'),
      headers: alice.headers,
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'entity_not_found' })
  })

  it("hides another org's entity: 404 through the API, nothing with a hand-written WHERE", async () => {
    const secret = await create(alice, { name: 'Secret Client' })
    const foreignUrl = `/api/v1/orgs/${mallory.orgId}/entities/${secret.id}`
    const patch = await t.app.inject({
      method: 'PATCH',
      url: foreignUrl,
      headers: mallory.headers,
      payload: { name: 'stolen' },
    })
    expect(patch.statusCode).toBe(404)
    expect(patch.body).not.toContain('Secret Client')
    const del = await t.app.inject({ method: 'DELETE', url: foreignUrl, headers: mallory.headers })
    expect(del.statusCode).toBe(404)
    const principal = {
      orgId: mallory.orgId,
      userId: mallory.userId,
      role: 'owner',
      actorType: 'user',
    } as const
    const seen = await withTenant(t.database.db, principal, async (tx) => {
      const rows = await tx.execute(sql`select name from entities where id = ${secret.id}`)
      const updated = await tx.execute(
        sql`update entities set name = 'x' where org_id = ${alice.orgId}`,
      )
      return { rows: (rows as unknown as { rows: unknown[] }).rows, updated }
    })
    expect(seen.rows).toEqual([])
    await expect(
      withTenant(t.database.db, principal, (tx) =>
        tx.insert(entities).values({ orgId: alice.orgId, name: 'planted' }),
      ),
    ).rejects.toThrow()
    expect((await list(alice, `?q=${encodeURIComponent('Secret Client')}`)).items[0]?.name).toBe(
      'Secret Client',
    )
  })

  it('bulk-deletes the selected entities for an admin and refuses a member with 403', async () => {
    const m = await signedInMember(t, 'Delete Firm')
    const member = await signedInWithRole(t, m.orgId, 'member')
    const [a, b, c] = [
      await create(m, { name: 'a' }),
      await create(m, { name: 'b' }),
      await create(m, { name: 'c' }),
    ]
    const byMember = await t.app.inject({
      method: 'POST',
      url: url(m, '/bulk-delete'),
      headers: member.headers,
      payload: { ids: [a.id, b.id] },
    })
    expect(byMember.statusCode).toBe(403)
    const foreign = await create(mallory, { name: 'not yours' })
    const res = await t.app.inject({
      method: 'POST',
      url: url(m, '/bulk-delete'),
      headers: m.headers,
      payload: { ids: [a.id, b.id, foreign.id] },
    })
    expect(res.json()).toEqual({ deleted: 2 })
    expect((await list(m)).items.map((e) => e.id)).toEqual([c.id])
    expect((await list(mallory, `?q=${encodeURIComponent('not yours')}`)).total).toBe(1)
    const single = await t.app.inject({
      method: 'DELETE',
      url: url(m, `/${c.id}`),
      headers: member.headers,
    })
    expect(single.statusCode).toBe(204)
    expect((await list(m)).total).toBe(0)
  })
})

describe('entities CSV', () => {
  it('exports every value quoted with formulas neutralised, and imports it into another org unchanged', async () => {
    const source = await signedInMember(t, 'Export Firm')
    await create(source, {
      name: '=HYPERLINK("http://x")',
      type: '+lead',
      data: { note: 'a,b\n"c"', n: -1 },
    })
    await create(source, {
      name: "'quoted",
      type: 'client ✓',
      data: { nested: { k: [1, null, true] } },
    })
    const res = await t.app.inject({ url: url(source, '/export'), headers: source.headers })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.body.split('\r\n')[0]).toBe(
      '"id","org_id","app_id","type","name","data","created_at"',
    )
    expect(res.body).toContain(`"'=HYPERLINK(""http://x"")","`)
    expect(res.body).toContain(`"''quoted"`)

    const target = await signedInMember(t, 'Import Firm')
    const started = await importCsv(target, res.body)
    expect(started.statusCode, started.body).toBe(202)
    const job = await finishedJob(target, started.json().id)
    expect(job).toMatchObject({ status: 'succeeded', result: { imported: 2 } })
    const strip = (p: Awaited<ReturnType<typeof list>>) =>
      p.items.map(({ name, type, data }) => ({ name, type, data }))
    const imported = await list(target, '?sort=name:asc')
    expect(strip(imported)).toEqual(strip(await list(source, '?sort=name:asc')))
    expect(
      imported.items.every((e) => (e as unknown as { orgId: string }).orgId === target.orgId),
    ).toBe(true)
    const events = await t.app.inject({
      url: `/api/v1/orgs/${target.orgId}/events`,
      headers: target.headers,
    })
    expect(events.json().items[0]).toMatchObject({ kind: 'entities.imported', meta: { count: 2 } })
  })

  it('keeps non-JSON data as raw text, turns empty values into defaults and ignores the file org_id', async () => {
    const m = await signedInMember(t, 'Raw Firm')
    const csv = 'name,type,data,org_id\nAlpha,,not json,someone-else\n"Beta","lead","{""x"":1}",\n'
    const job = await finishedJob(m, (await importCsv(m, csv)).json().id)
    expect(job.status).toBe('succeeded')
    const rows = (await list(m, '?sort=name:asc')).items
    expect(rows.map(({ name, type, data }) => ({ name, type, data }))).toEqual([
      { name: 'Alpha', type: 'item', data: { _raw: 'not json' } },
      { name: 'Beta', type: 'lead', data: { x: 1 } },
    ])
  })

  it('keeps characters whose bytes straddle the file’s read chunks (64 KiB) intact', async () => {
    const m = await signedInMember(t, 'Unicode Import Firm')
    // Rows of 100 three-byte characters: many end on a chunk boundary's middle byte.
    const name = (i: number) => `€${i} ${'§'.repeat(10)} ${'の'.repeat(88)}`
    const rows = Array.from({ length: 400 }, (_, i) => `"${name(i)}",item,{}`)
    const job = await finishedJob(
      m,
      (await importCsv(m, `name,type,data\n${rows.join('\n')}\n`)).json().id,
    )
    expect(job.status).toBe('succeeded')
    const stored = await withTenant(t.database.db, { orgId: m.orgId }, (tx) =>
      tx.select({ name: entities.name }).from(entities),
    )
    expect(stored.map((r) => r.name).sort()).toEqual(rows.map((_, i) => name(i)).sort())
  })

  it('imports nothing when one row is bad and names its line', async () => {
    const m = await signedInMember(t, 'Bad Import Firm')
    const good = Array.from({ length: 1200 }, (_, i) => `"row ${i}","item","{}"`).join('\n')
    // Header on line 1, a blank line, a two-line value on lines 3-4, 1200 good rows, a blank
    // line, the bad one on line 1206.
    const csv = `name,type,data\n\n"multi\nline",x,{}\n${good}\n\n"",item,{}\n`
    const job = await finishedJob(m, (await importCsv(m, csv)).json().id)
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/^Line 1206: The name is empty\./)
    expect((await list(m)).total).toBe(0)
    // An unclosed quote fails on its line, instead of swallowing the rest of the file.
    const unclosed = await finishedJob(
      m,
      (await importCsv(m, 'name\nAcme\n"Beta\nGamma\n')).json().id,
    )
    expect(unclosed.status).toBe('failed')
    expect(unclosed.error).toMatch(/^Line 3: A quoted value is not closed/)
    expect((await list(m)).total).toBe(0)
  })

  it('names the line of a value the database would refuse: a day that does not exist, an unpaired surrogate', async () => {
    const m = await signedInMember(t, 'Refused Values Firm')
    for (const [csv, line] of [
      ['name,created_at\nA,2024-01-01\nB,2024-02-30\n', 3],
      ['name,created_at\nA,0000-01-01\n', 2],
      ['name,created_at\nA,2024-01-01T10:00:00+16:00\n', 2],
      ['name,data\nA,{}\nB,"{""a"":""\\ud800""}"\n', 3],
      ['name,data\nA,"{""\\udc00"":1}"\n', 2],
    ] as const) {
      const job = await finishedJob(m, (await importCsv(m, csv)).json().id)
      expect(job.status, csv).toBe('failed')
      expect(job.error, csv).toMatch(new RegExp(`^Line ${line}: `))
    }
    expect((await list(m)).total).toBe(0)
    // What the checks let through, PostgreSQL stores as it was written.
    const edges =
      'name,created_at\nA,2024-02-29\nB,2024-06-01 10:00-15:30\nC,2024-12-31T23:59:59.999Z\n'
    const stored = await finishedJob(m, (await importCsv(m, edges)).json().id)
    expect(stored).toMatchObject({ status: 'succeeded', result: { imported: 3 } })
  })

  it('answers data or a name the database cannot store with a 400 problem, not a 500', async () => {
    const m = await signedInMember(t, 'Unstorable Firm')
    for (const payload of [
      '{"name":"a","data":{"x":"\\u0000"}}',
      '{"name":"a","data":{"x":["\\ud800"]}}',
      '{"name":"a","data":{"\\udfff":1}}',
      // A name is cleaned like a title (an unpaired surrogate dropped): one of nothing else is empty.
      '{"name":"\\ud800"}',
      '{"name":"a","type":"\\u0000"}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: url(m),
        headers: { ...m.headers, 'content-type': 'application/json' },
        payload,
      })
      expect(res.statusCode, payload).toBe(400)
      expect(res.json(), payload).toMatchObject({ code: 'validation_failed' })
    }
    // A surrogate pair (an emoji) is well formed and kept.
    expect((await create(m, { name: 'Smile 😀', data: { note: '😀' } })).name).toBe('Smile 😀')
    expect((await list(m)).total).toBe(1)
  })

  it("answers an empty file with 'No rows', a header-only file too, and unknown columns with their name", async () => {
    const m = await signedInMember(t, 'Empty Import Firm')
    const empty = await importCsv(m, '')
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({ code: 'empty_csv', detail: 'No rows' })
    const headerOnly = await finishedJob(m, (await importCsv(m, 'name,type\n')).json().id)
    expect(headerOnly).toMatchObject({ status: 'failed', error: 'No rows' })
    const unknown = await finishedJob(m, (await importCsv(m, 'name,colour\nx,red\n')).json().id)
    expect(unknown.error).toMatch(/Line 1: Unknown column "colour"/)
  })

  it("files imported rows under the app given, and makes the app the import job's subject", async () => {
    const m = await signedInMember(t, 'App Import Firm')
    const app = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/apps`,
      headers: m.headers,
      payload: { slug: 'deals' },
    })
    const appId = app.json().id as string
    const started = await t.app.inject({
      method: 'POST',
      url: url(m, `/import?appId=${appId}`),
      headers: m.headers,
      payload: uploadForm(new TextEncoder().encode('name\nAcme\n'), 'entities.csv'),
    })
    expect(started.json()).toMatchObject({ kind: 'entities-import', subjectId: appId })
    expect(await finishedJob(m, started.json().id)).toMatchObject({ status: 'succeeded' })
    const rows = await t.app.inject({ url: url(m, `?appId=${appId}`), headers: m.headers })
    expect(rows.json()).toMatchObject({ total: 1, items: [{ name: 'Acme', appId }] })
  })

  it('lets only admins import (403 for a member)', async () => {
    const member = await signedInWithRole(t, alice.orgId, 'member')
    const res = await importCsv(member, 'name\nx\n')
    expect(res.statusCode).toBe(403)
  })
})

describe('events', () => {
  it('lists real actions newest first, filtered by kind', async () => {
    const m = await signedInMember(t, 'Events Firm')
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/documents/text`,
      headers: m.headers,
      payload: { title: 'Memo', content: 'Please review.' },
    })
    const e = await create(m, { name: 'Client A' })
    await t.app.inject({ method: 'DELETE', url: url(m, `/${e.id}`), headers: m.headers })
    const app = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/apps`,
      headers: m.headers,
      payload: { slug: 'litigation' },
    })
    const doc = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/documents/text`,
      headers: m.headers,
      payload: { title: 'Draft', content: 'To be withdrawn.' },
    })
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${m.orgId}/documents/${doc.json().id}`,
      headers: m.headers,
    })
    const res = await t.app.inject({ url: `/api/v1/orgs/${m.orgId}/events`, headers: m.headers })
    const body = res.json()
    expect(body.items.map((i: { kind: string }) => i.kind)).toEqual([
      'document.deleted',
      'document.pasted',
      'app.created',
      'entities.deleted',
      'entity.created',
      'document.pasted',
    ])
    expect(body.items[0].meta).toEqual({ documentId: doc.json().id, title: 'Draft' })
    expect(body.items[2].meta).toEqual({ appId: app.json().id, slug: 'litigation' })
    expect(body.kinds).toEqual([
      'app.created',
      'document.deleted',
      'document.pasted',
      'entities.deleted',
      'entity.created',
    ])
    const only = await t.app.inject({
      url: `/api/v1/orgs/${m.orgId}/events?kind=entity.created`,
      headers: m.headers,
    })
    expect(only.json()).toMatchObject({
      total: 1,
      items: [{ kind: 'entity.created', meta: { entityId: e.id } }],
    })
    const foreign = await t.app.inject({
      url: `/api/v1/orgs/${m.orgId}/events`,
      headers: mallory.headers,
    })
    expect(foreign.statusCode).toBe(404)
  })
})
