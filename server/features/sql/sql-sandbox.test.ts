import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { documents, entities } from '../../db/schema'
import { AppError } from '../../errors/app-error'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'
import { SandboxOutOfMemory } from './sql-sandbox'
import {
  SANDBOX_LIMITS,
  SqlSandboxes,
  type SandboxCaller,
  type SqlSandboxesOptions,
} from './sql-sandboxes'
import { SQL_VIEWS } from './sql-views'

// The SQL runner on embedded PGlite runs in a sandbox per organisation (decision 0091).

let t: TestApp
let big: TestMember
let small: TestMember
let templateDir: string

/** Sandboxes of the test app's database opening from the run's empty database (global-setup.ts). */
function sandboxesOf(options: SqlSandboxesOptions = {}) {
  return new SqlSandboxes(t.database.db, { templateFile: inject('sqlSandboxTemplate'), ...options })
}

/** Quadratic work over one value an aggregate built from the whole view: plans cheap, runs long. */
// Each of the 12,000 names is sought in one string of all of them, eight times over (~1 MB):
// ~12 GB of character comparisons, far past the 5 s cap on any machine. With the names once
// (~130 KB), a fast machine finished inside the cap (4.9 s) and answered 200.
const QUADRATIC = `select count(*) from sql_entities a
  where (select string_agg(name || name || name || name || name || name || name || name, ',')
         from sql_entities) like '%' || a.name || 'x%'`

/**
 * Cheap to the planner, huge to run: each of the 12,000 names' "e" replaced by all the names
 * (~140 KB), ~1.7 GB of text, past the sandbox's memory cap (and PostgreSQL's 1 GB for a value).
 */
const MEMORY_HOG = `select length(replace(s, 'e', s))
  from (select string_agg(name, ',') as s from sql_entities) t`

/** Who asks a sandbox: the member's organisation (or `orgId`) and the member. */
function callerOf(m: TestMember, orgId = m.orgId): SandboxCaller {
  return { orgId, person: m.userId }
}

function run(m: TestMember, query: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/sql`,
    headers: m.headers,
    payload: { sql: query },
  })
}

async function cell(m: TestMember, query: string): Promise<unknown> {
  const res = await run(m, query)
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { rows: unknown[][] }).rows[0]![0]
}

async function stateOfDatabase() {
  const result = await t.database.db.execute(sql`select
    (select count(*)::int from documents) as documents,
    (select count(*)::int from entities) as entities,
    (select count(*)::int from pg_roles) as roles,
    current_user as who`)
  return (result as unknown as { rows: unknown[] }).rows
}

beforeAll(async () => {
  templateDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-sandbox-'))
  t = await buildTestApp({ sharedSqlSandboxTemplate: true })
  const bigOwner = await signedInMember(t, 'Many Clients LLP')
  big = await signedInWithRole(t, bigOwner.orgId, 'admin')
  small = await signedInMember(t, 'Few Clients LLP')
  // 12,000 rows: the quadratic query above runs far past the 5 s cap.
  await t.database.db
    .insert(entities)
    .values(Array.from({ length: 12_000 }, (_, i) => ({ orgId: big.orgId, name: `Client ${i}` })))
  await t.database.db.insert(documents).values([
    { orgId: small.orgId, title: 'Small firm lease', content: 'their text' },
    { orgId: big.orgId, title: 'Big firm merger', content: 'secret' },
  ])
  await t.database.db.execute(sql`analyze`)
})
afterAll(async () => {
  await t.close()
  await rm(templateDir, { recursive: true, force: true })
})

describe('the SQL runner on embedded PGlite', () => {
  it("stops a query slow by its own work at the time cap while another tenant's list completes meanwhile, changing nothing", async () => {
    // Loaded first, so the slow query below starts at once in the reused sandbox.
    expect(await cell(big, 'select count(*) from sql_entities')).toBe('12000')
    const before = await stateOfDatabase()
    const order: string[] = []
    const slow = run(big, QUADRATIC).then((res) => {
      order.push('runner')
      return res
    })
    // Lists of another organisation, one after another, while the runner's query runs.
    const lists: number[] = []
    while (!order.includes('runner') && lists.length < 5) {
      const res = await t.app.inject({
        url: `/api/v1/orgs/${small.orgId}/documents`,
        headers: small.headers,
      })
      lists.push(res.statusCode)
      order.push('list')
    }
    const res = await slow
    expect(res.statusCode, res.body).toBe(422)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'sql_timeout', detail: expect.stringMatching(/5 s/) })
    expect(order.slice(0, 5)).toEqual(['list', 'list', 'list', 'list', 'list'])
    expect(lists).toEqual([200, 200, 200, 200, 200])
    expect(await stateOfDatabase()).toEqual(before)
    // The stopped sandbox is gone; the next query gets a new one with the same rows.
    expect(await cell(big, 'select count(*) from sql_entities')).toBe('12000')
  })

  it('sees rows added, changed and removed after an earlier run', async () => {
    const titles = `select string_agg(title, '|' order by title) from sql_documents`
    expect(await cell(small, titles)).toBe('Small firm lease')
    const [added] = await t.database.db
      .insert(documents)
      .values({ orgId: small.orgId, title: 'Added later', content: 'x' })
      .returning({ id: documents.id })
    expect(await cell(small, titles)).toBe('Added later|Small firm lease')
    await t.database.db
      .update(documents)
      .set({ title: 'Renamed' })
      .where(eq(documents.id, added!.id))
    expect(await cell(small, titles)).toBe('Renamed|Small firm lease')
    await t.database.db.delete(documents).where(eq(documents.id, added!.id))
    expect(await cell(small, titles)).toBe('Small firm lease')
  })

  it("holds only the organisation's own rows of the views, and no other table", async () => {
    const sandboxes = sandboxesOf()
    try {
      const seen = await sandboxes.run(callerOf(small), 60_000, async (sandbox) => ({
        tables: (
          await sandbox.query(
            `select string_agg(tablename, ',' order by tablename) as t from pg_tables
             where schemaname not in ('pg_catalog', 'information_schema')`,
          )
        ).rows,
        titles: (await sandbox.query('select title from sql_documents')).rows,
        entities: (await sandbox.query('select count(*)::int as n from sql_entities')).rows,
        roles: (
          await sandbox.query(
            `select count(*)::int as n from pg_roles where rolname like 'lexdesk%'`,
          )
        ).rows,
      }))
      expect(seen.tables).toEqual([{ t: [...SQL_VIEWS].sort().join(',') }])
      expect(seen.titles).toEqual([{ title: 'Small firm lease' }])
      expect(seen.entities).toEqual([{ n: 0 }])
      expect(seen.roles).toEqual([{ n: 1 }])
    } finally {
      await sandboxes.close()
    }
  })

  it('refuses an organisation too large for a sandbox, naming its rows and server mode', async () => {
    const sandboxes = sandboxesOf({ maxRows: 1_000 })
    try {
      const refused = await sandboxes
        .run(callerOf(big), 60_000, async () => 'ran')
        .catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(AppError)
      expect(refused).toMatchObject({ code: 'sql_too_large' })
      expect((refused as AppError).detail).toMatch(/12,00\d rows, over the 1,000/)
      expect((refused as AppError).detail).toMatch(/PostgreSQL/)
    } finally {
      await sandboxes.close()
    }
  })

  it('refuses a new organisation while every sandbox is busy, then serves it', async () => {
    const sandboxes = sandboxesOf({ maxSandboxes: 1 })
    try {
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let started!: () => void
      const running = new Promise<void>((resolve) => (started = resolve))
      const first = sandboxes.run(callerOf(small), 120_000, async () => {
        started()
        await held
        return 'first'
      })
      await running
      const busy = await sandboxes
        .run(callerOf(big), 60_000, async () => 'second')
        .catch((error: unknown) => error)
      expect(busy).toMatchObject({ code: 'sql_busy' })
      release()
      expect(await first).toBe('first')
      // The idle sandbox of the first organisation makes way for the other's.
      expect(await sandboxes.run(callerOf(big), 60_000, async () => 'second')).toBe('second')
    } finally {
      await sandboxes.close()
    }
  })

  it('a query that blows up memory is a 422 and frees the sandbox', async () => {
    const res = await run(big, MEMORY_HOG)
    expect(res.statusCode, res.body).toBe(422)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({
      code: 'sql_out_of_memory',
      detail: expect.stringMatching(/more memory than the SQL runner allows/),
    })
    // The runner goes on serving the organisation.
    expect(await cell(big, 'select count(*) from sql_entities')).toBe('12000')

    // In the sandbox itself: the memory stops at the cap, and the sandbox is replaced by a new
    // one, so what the query took is returned rather than kept.
    const sandboxes = sandboxesOf()
    try {
      const loaded = await sandboxes.run(callerOf(big), 120_000, async (sandbox) => ({
        sandbox,
        bytes: await sandbox.memoryBytes(),
      }))
      let grown = 0
      const failed = await sandboxes
        .run(callerOf(big), 120_000, async (sandbox) => {
          try {
            return await sandbox.query(MEMORY_HOG)
          } finally {
            grown = await sandbox.memoryBytes()
          }
        })
        .catch((error: unknown) => error)
      expect(failed).toMatchObject({ code: '53200' })
      expect(grown).toBeGreaterThan(loaded.bytes + 128 * 1024 ** 2)
      expect(grown).toBeLessThanOrEqual(SANDBOX_LIMITS.maxMemoryBytes)
      expect(loaded.sandbox.closed).toBe(true)
      const next = await sandboxes.run(callerOf(big), 120_000, async (sandbox) => ({
        sandbox,
        bytes: await sandbox.memoryBytes(),
        count: (await sandbox.query('select count(*)::int as n from sql_entities')).rows,
      }))
      expect(next.sandbox).not.toBe(loaded.sandbox)
      expect(next.bytes).toBeLessThan(grown)
      expect(next.count).toEqual([{ n: 12_000 }])
    } finally {
      await sandboxes.close()
    }
    // Three loads of 12,000 rows and two sandboxes opened: minutes on a loaded 2-core machine.
  }, 240_000)

  it('loads an organisation of large rows in pages that fit under the memory cap', async () => {
    // 300 entities of 200 KB of data each (the API allows 256 KB): 60 MB, which as one page of
    // JSON would take the sandbox's memory to ~850 MB, past its cap.
    const archive = await signedInMember(t, 'Large Files LLP')
    const text = 'x'.repeat(200_000)
    for (let batch = 0; batch < 6; batch++) {
      await t.database.db.insert(entities).values(
        Array.from({ length: 50 }, (_, i) => ({
          orgId: archive.orgId,
          name: `Matter ${batch * 50 + i}`,
          data: { text },
        })),
      )
    }
    const sandboxes = sandboxesOf()
    try {
      const seen = await sandboxes.run(callerOf(archive), 120_000, async (sandbox) => ({
        rows: (
          await sandbox.query(
            `select count(*)::int as n, count(distinct name)::int as names,
               sum(length(data->>'text'))::bigint::text as chars from sql_entities`,
          )
        ).rows,
        bytes: await sandbox.memoryBytes(),
      }))
      expect(seen.rows).toEqual([{ n: 300, names: 300, chars: String(300 * 200_000) }])
      expect(seen.bytes).toBeLessThan(SANDBOX_LIMITS.maxMemoryBytes)
    } finally {
      await sandboxes.close()
    }
  }, 240_000)

  it("an answer too large to hand back is a 422, and one past the thread's heap ends only its sandbox", async () => {
    // 100 rows of all the names five times over (~700 KB each): ~70 million characters.
    const res = await run(
      big,
      `select s || s || s || s || s from (select string_agg(name, ',') as s from sql_entities) t,
         sql_entities limit 100`,
    )
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'sql_out_of_memory',
      detail: expect.stringMatching(/answer is larger than the SQL runner hands back/),
    })

    // Without the answer's cap, ~420 million characters outgrow the thread's heap: Node ends the
    // thread, not the process, and the organisation's next query gets a new sandbox.
    const sandboxes = sandboxesOf()
    try {
      const ended = await sandboxes
        .run(callerOf(big), 120_000, (sandbox) =>
          sandbox.query(
            `select s || s || s from (select string_agg(name, ',') as s from sql_entities) t,
               sql_entities limit 1001`,
            [],
            'array',
          ),
        )
        .catch((error: unknown) => error)
      expect(ended).toBeInstanceOf(SandboxOutOfMemory)
      const counted = await sandboxes.run(callerOf(big), 120_000, async (sandbox) => {
        return (await sandbox.query('select count(*)::int as n from sql_entities')).rows
      })
      expect(counted).toEqual([{ n: 12_000 }])
    } finally {
      await sandboxes.close()
    }
  }, 240_000)

  it('one person cannot hold every sandbox', async () => {
    // One person in two organisations (a partner of two firms, say), and another firm's admin.
    const partner = await signedInMember(t, 'Two Offices LLP')
    const sandboxes = sandboxesOf({ maxSandboxes: 2 })
    try {
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let started!: () => void
      const running = new Promise<void>((resolve) => (started = resolve))
      const first = sandboxes.run(callerOf(partner), 120_000, async () => {
        started()
        await held
        return 'first office'
      })
      await running
      // The same person in their other organisation, while their first query runs: refused.
      const second = sandboxes
        .run(callerOf(partner, small.orgId), 60_000, async () => {
          await held
          return 'second office'
        })
        .catch((error: unknown) => error)
      // Another person finds the other sandbox free.
      expect(await sandboxes.run(callerOf(big), 60_000, async () => 'other firm')).toBe(
        'other firm',
      )
      const refused = await second
      expect(refused).toBeInstanceOf(AppError)
      expect(refused).toMatchObject({ code: 'sql_busy', status: 503 })
      expect((refused as AppError).headers).toEqual({ 'retry-after': '60' })
      expect((refused as AppError).detail).toMatch(/one person may use one at a time/)
      release()
      expect(await first).toBe('first office')
      // Their first query done, the person may use the other organisation's sandbox.
      expect(
        await sandboxes.run(callerOf(partner, small.orgId), 60_000, async () => 'second office'),
      ).toBe('second office')
    } finally {
      await sandboxes.close()
    }
  })

  it('keeps the empty database in its template file for the sandboxes of a later start', async () => {
    // A file of its own, not yet made: this test's first prepare runs the initdb.
    const templateFile = path.join(templateDir, 'template.tar')
    const first = sandboxesOf({ templateFile })
    await first.prepare()
    await first.close()
    expect((await stat(templateFile)).size).toBeGreaterThan(1_000_000)
    const later = sandboxesOf({ templateFile })
    try {
      const counted = await later.run(callerOf(small), 60_000, async (sandbox) => {
        return (await sandbox.query('select count(*)::int as n from sql_documents')).rows
      })
      expect(counted).toEqual([{ n: 1 }])
    } finally {
      await later.close()
    }
  })
})
