import { like, sql } from 'drizzle-orm'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents, entities, events, sqlQueries } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'
import { SQL_VIEWS } from './sql-views'

let t: TestApp
let owner: TestMember
let admin: TestMember
let member: TestMember
let other: TestMember

interface Result {
  columns: { name: string; type: string }[]
  rows: (string | number | boolean | null)[][]
  rowCount: number
  truncated: boolean
  rowCap: number
  durationMs: number
}

function run(m: TestMember, query: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/sql`,
    headers: m.headers,
    payload: { sql: query },
  })
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows
}

/** What an attack could change or reveal: roles, settings, rows, for the assertion it did not. */
async function stateOfDatabase() {
  return rows(sql`select
    (select count(*)::int from documents) as documents,
    (select count(*)::int from pg_roles) as roles,
    (select string_agg(rolname, ',' order by rolname) from pg_roles where rolsuper) as superusers,
    current_user as who, current_setting('app.org_id', true) as org`)
}

beforeAll(async () => {
  t = await buildTestApp({ sharedSqlSandboxTemplate: true })
  owner = await signedInMember(t, 'Runner LLP')
  admin = await signedInWithRole(t, owner.orgId, 'admin')
  member = await signedInWithRole(t, owner.orgId, 'member')
  other = await signedInMember(t, 'Other Firm')
  await t.database.db.insert(documents).values([
    { orgId: owner.orgId, title: 'Lease of Mill Lane', content: 'secret text one' },
    { orgId: owner.orgId, title: 'NDA with Acme', content: 'secret text two' },
    { orgId: other.orgId, title: 'Other firm merger', content: 'their secret' },
  ])
  await t.database.db
    .insert(entities)
    .values(Array.from({ length: 1200 }, (_, i) => ({ orgId: owner.orgId, name: `Client ${i}` })))
  await t.database.db.insert(events).values([{ orgId: owner.orgId, kind: 'document.upload' }])
  await t.database.db.execute(sql`analyze`)
})
afterAll(() => t.close())

describe('the SQL runner', () => {
  it('runs a SELECT over the views with column types, row count and time', async () => {
    const res = await run(
      admin,
      `select title, length(title) as n, created_at from sql_documents order by title`,
    )
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as Result
    expect(body.columns).toEqual([
      { name: 'title', type: 'text' },
      { name: 'n', type: 'integer' },
      { name: 'created_at', type: 'timestamp with time zone' },
    ])
    expect(body.rows.map((r) => r.slice(0, 2))).toEqual([
      ['Lease of Mill Lane', 18],
      ['NDA with Acme', 13],
    ])
    expect(body).toMatchObject({ rowCount: 2, truncated: false, rowCap: 1000 })
    expect(body.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('keeps duplicate column names and answers WITH … SELECT', async () => {
    const res = await run(
      owner,
      `with n as (select count(*) as c from sql_entities) select c, c from n`,
    )
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as Result
    expect(body.columns.map((c) => c.name)).toEqual(['c', 'c'])
    expect(body.columns[0]!.type).toBe('bigint')
    expect(body.rows).toEqual([['1200', '1200']])
  })

  it('answers sub-selects, set operations and window functions', async () => {
    const res = await run(
      admin,
      `select kind, count(*) over () as kinds from (
         select 'document' as kind from sql_documents where id = any (select id from sql_documents)
         union select type from sql_entities) k order by kind`,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json() as Result).rows).toEqual([
      ['document', '2'],
      ['item', '2'],
    ])
  })

  it('caps the rows at 1,000 and says so', async () => {
    const body = (await run(admin, 'select name from sql_entities')).json() as Result
    expect(body).toMatchObject({ rowCount: 1000, truncated: true, rowCap: 1000 })
    expect(body.rows).toHaveLength(1000)
  })

  it('answers a mistake of the query as a 400 problem with the database’s message', async () => {
    const res = await run(admin, 'select nope from sql_documents')
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'sql_failed' })
    expect(res.json().detail).toContain('nope')
  })

  it('answers a query that runs out of memory as a 422 problem, on either database', async () => {
    // Allowed functions, cheap to the planner: the 1,200 names (~13 KB) put for each "e" (16 MB),
    // then again: past the PGlite sandbox's memory cap, and PostgreSQL's 1 GB for one value.
    const res = await run(
      admin,
      `select length(replace(replace(s, 'e', s), 'e', s))
         from (select string_agg(name, ',') as s from sql_entities) t`,
    )
    expect(res.statusCode, res.body).toBe(422)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({
      code: 'sql_out_of_memory',
      detail: expect.stringMatching(/more memory than the SQL runner allows/),
    })
    const next = (await run(admin, 'select count(*) from sql_entities')).json() as Result
    expect(next.rows).toEqual([['1200']])
  })

  it('exports the result as CSV', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/sql/csv`,
      headers: admin.headers,
      payload: { sql: `select title, '=1+1' as f from sql_documents order by title` },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="query-/)
    expect(Papa.parse(res.body.trim()).data).toEqual([
      ['title', 'f'],
      ['Lease of Mill Lane', "'=1+1"],
      ['NDA with Acme', "'=1+1"],
    ])
  })

  it('keeps the last 20 queries of each person, newest first, refused ones included', async () => {
    const person = await signedInWithRole(t, owner.orgId, 'admin')
    for (let i = 0; i < 22; i++) await run(person, `select ${i} as n`)
    await run(person, 'select pg_sleep(1)')
    const res = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/sql/history`,
      headers: person.headers,
    })
    expect(res.statusCode, res.body).toBe(200)
    const items = (
      res.json() as { items: { sql: string; error: string | null; rowCount: number }[] }
    ).items
    expect(items).toHaveLength(20)
    expect(items[0]).toMatchObject({ sql: 'select pg_sleep(1)', rowCount: null })
    expect(items[0]!.error).toContain('pg_sleep')
    expect(items[1]).toMatchObject({ sql: 'select 21 as n', rowCount: 1, error: null })
    expect(items.at(-1)!.sql).toBe('select 3 as n')
    const theirs = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/sql/history`,
      headers: admin.headers,
    })
    expect(JSON.stringify(theirs.json())).not.toContain('select 21 as n')
  })

  it('hides the history of one organisation from another (RLS)', async () => {
    await run(other, 'select 42 as other_only')
    const seen = await withTenant(t.database.db, { orgId: owner.orgId }, (tx) =>
      tx.select().from(sqlQueries).where(like(sqlQueries.sql, '%other_only%')),
    )
    const theirs = await withTenant(t.database.db, { orgId: other.orgId }, (tx) =>
      tx.select().from(sqlQueries).where(like(sqlQueries.sql, '%other_only%')),
    )
    expect(theirs).toHaveLength(1)
    expect(seen).toHaveLength(0)
    const res = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/sql/history`,
      headers: owner.headers,
    })
    expect(res.body).not.toContain('other_only')
  })

  it('refuses members with a 403 problem', async () => {
    const res = await run(member, 'select 1')
    expect(res.statusCode).toBe(403)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('reads a column qualified by its view, even one named as a function is (name)', async () => {
    const res = await run(
      admin,
      `select e.name, sql_entities.type from sql_entities e, sql_entities
      where e.id = sql_entities.id order by e.name limit 1`,
    )
    expect(res.statusCode, res.body).toBe(200)
  })

  it.each([
    ['1,000 rows of a table in order', 'select name from sql_entities order by name limit 1000'],
    [
      'a join on keys',
      `select e.name, f.type from sql_entities e join sql_entities f on f.id = e.id
       where e.name like 'Client 1%'`,
    ],
    // 1.44 million rows, planned at ~21,600: a nested loop reads its Materialize's rows again
    // without running what is under it again, so the worst case is the plan's own cost.
    [
      'a count of a cross join of two views',
      'select count(*) from sql_entities a cross join sql_entities b',
    ],
    [
      'an aggregate of a join on keys in a WITH',
      `with j as (select e.name from sql_entities e join sql_entities f on f.id = e.id limit 10)
       select count(*) from j`,
    ],
  ])('accepts an honest query within the cost cap: %s', async (_name, query) => {
    const res = await run(admin, query)
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json() as Result).rowCount).toBeGreaterThan(0)
  })

  it('has no view column named as a function that could take a whole row', async () => {
    // x.f on a row without column f calls f(x): a view's column name must never be such a
    // function, or naming it on another view's row would call it past the allow-list.
    const clashes = await rows<{ name: string }>(sql`select distinct a.attname as name
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_proc p on p.proname = a.attname and p.pronargs = 1
      join pg_type ty on ty.oid = p.proargtypes[0]
      where c.relname like 'sql\_%' and c.relkind = 'v' and not a.attisdropped
        and (ty.typtype = 'p' or ty.typtype = 'c')`)
    expect(clashes).toEqual([])
  })

  it("reads every view as its caller, so each table's row-level security applies", async () => {
    // A view runs as its owner (a superuser, past every policy) unless it is security_invoker:
    // one without it would show every organisation's rows to the runner. Granted (directly) to
    // the runner's role only.
    const views = await rows<{ name: string; options: string[] | null; readers: string | null }>(
      sql`select c.relname as name, c.reloptions as options,
        (select string_agg(distinct pg_get_userbyid(a.grantee), ',') from aclexplode(c.relacl) a
          where a.privilege_type = 'SELECT' and a.grantee <> c.relowner) as readers
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('v', 'm') order by c.relname`,
    )
    expect(views.map((v) => v.name)).toEqual([...SQL_VIEWS])
    for (const view of views) {
      expect(view.options, view.name).toContain('security_invoker=true')
      expect(view.readers, view.name).toBe('lexdesk_sql')
    }
  })

  it('offers exactly the views the migration created, each readable', async () => {
    const views = await rows<{ name: string }>(sql`select table_name as name
      from information_schema.views where table_schema = 'public' and table_name like 'sql\\_%'
      order by table_name`)
    expect(views.map((v) => v.name)).toEqual([...SQL_VIEWS])
    for (const view of SQL_VIEWS) {
      expect((await run(admin, `select * from ${view} limit 1`)).statusCode, view).toBe(200)
    }
  })
})

describe('attacks on the SQL runner, each refused with nothing changed', () => {
  it.each([
    ['RESET ROLE', 'reset role', 'sql_refused', /Only SELECT/],
    ['SET ROLE', 'set role postgres', 'sql_refused', /Only SELECT/],
    ['SET of a setting', "set app.org_id = 'x'", 'sql_refused', /Only SELECT/],
    [
      'set_config of the role',
      "select set_config('role', 'postgres', true)",
      'sql_refused',
      /set_config/,
    ],
    [
      'set_config hidden in a subquery',
      "select * from sql_documents where title = (select set_config('app.org_id', 'x', true))",
      'sql_refused',
      /set_config/,
    ],
    ['current_setting', "select current_setting('app.org_id')", 'sql_refused', /current_setting/],
    ['two statements', 'select 1; select 2', 'sql_refused', /one statement/],
    ['a write after a SELECT', 'select 1; delete from documents', 'sql_refused', /one statement/],
    [
      'a write hidden in a CTE',
      'with d as (delete from documents returning id) select * from d',
      'sql_refused',
      /WITH must be a SELECT/,
    ],
    [
      'an insert hidden in a CTE',
      "with d as (insert into sql_queries (org_id, actor, sql) values ('a','b','c') returning id) select 1",
      'sql_refused',
      /WITH must be a SELECT/,
    ],
    ['COPY', "copy documents to '/tmp/x'", 'sql_refused', /Only SELECT/],
    ['COPY from a program', "copy (select 1) to program 'id'", 'sql_refused', /Only SELECT/],
    [
      'DO',
      "do $$ begin perform set_config('role','postgres',false); end $$",
      'sql_refused',
      /Only SELECT/,
    ],
    ['pg_read_file', "select pg_read_file('/etc/passwd')", 'sql_refused', /pg_read_file/],
    [
      'pg_read_file schema-qualified',
      "select pg_catalog.pg_read_file('/etc/passwd')",
      'sql_refused',
      /pg_read_file/,
    ],
    [
      'pg_read_file as a column',
      'select d.pg_read_file from sql_documents d',
      'sql_refused',
      /pg_read_file/,
    ],
    [
      'row_to_json as a column',
      'select d.row_to_json from sql_documents d',
      'sql_refused',
      /row_to_json\(x\)/,
    ],
    [
      'a function as a field of a value',
      'select (d).set_config from sql_documents d',
      'sql_refused',
      /set_config/,
    ],
    ['pg_sleep(100)', 'select pg_sleep(100)', 'sql_refused', /pg_sleep/],
    [
      'pg_sleep in ORDER BY',
      'select title from sql_documents order by pg_sleep(100)',
      'sql_refused',
      /pg_sleep/,
    ],
    [
      'generate_series in FROM',
      'select * from generate_series(1, 100000000)',
      'sql_refused',
      /RangeFunction/,
    ],
    ['dblink', "select dblink('host=x', 'select 1')", 'sql_refused', /dblink/],
    ['lo_import', "select lo_import('/etc/passwd')", 'sql_refused', /lo_import/],
    [
      'query_to_xml, SQL of its own',
      "select query_to_xml('select * from session', true, true, '')",
      'sql_refused',
      /query_to_xml/,
    ],
    ['a locking clause', 'select * from sql_documents for update', 'sql_refused', /locking/],
    ['SELECT INTO', 'select * into stolen from sql_documents', 'sql_refused', /SELECT INTO/],
    ['the session table', 'select * from session', 'sql_refused', /"session" cannot be read/],
    ['the account table', 'select * from account', 'sql_refused', /"account" cannot be read/],
    [
      'the verification table',
      'select * from verification',
      'sql_refused',
      /"verification" cannot be read/,
    ],
    [
      'an auth table in a subquery',
      'select (select token from session limit 1) from sql_documents',
      'sql_refused',
      /"session"/,
    ],
    [
      'an auth table through a schema',
      'select * from public.session',
      'sql_refused',
      /schema name/,
    ],
    [
      'a base tenant table',
      'select content from documents',
      'sql_refused',
      /"documents" cannot be read/,
    ],
    ['a catalog', 'select * from pg_authid', 'sql_refused', /"pg_authid" cannot be read/],
    [
      'a later CTE name that is a table',
      'with a as (select * from session), session as (select 1) select * from a',
      'sql_refused',
      /"session"/,
    ],
    ['a regclass cast', "select 'session'::regclass", 'sql_refused', /regclass/],
    ['the current user', 'select current_user', 'sql_refused', /user names/],
    [
      'WITH RECURSIVE',
      'with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r',
      'sql_refused',
      /RECURSIVE/,
    ],
    [
      'comments around a second statement',
      'select 1 /* ; */ ; -- \n reset role',
      'sql_refused',
      /one statement/,
    ],
    [
      'a keyword hidden in a string',
      "select 'x'; reset role; select ';'",
      'sql_refused',
      /one statement/,
    ],
    [
      'a nested comment hiding nothing',
      'select /* /* */ set_config */ 1 as n; set role postgres',
      'sql_refused',
      /one statement/,
    ],
    [
      'a dollar-quoted string holding SQL',
      'select $q$; reset role; $q$ as s; reset role',
      'sql_refused',
      /one statement/,
    ],
    ['a quoted function name', `select "pg_sleep"(100)`, 'sql_refused', /pg_sleep/],
    ['an OPERATOR() call', 'select 1 OPERATOR(pg_catalog.+) 1', 'sql_refused', /operator/],
    [
      'an OPERATOR() call before ANY',
      'select 1 OPERATOR(pg_catalog.=) ANY (select 1)',
      'sql_refused',
      /operator/,
    ],
    ['an unreadable text', 'selec 1', 'sql_refused', /could not be read/],
    ['an empty text', '  -- nothing \n', 'sql_refused', /one SELECT/],
    [
      'a cross join of the largest tables',
      'select count(*) from sql_entities a cross join sql_entities b cross join sql_entities c',
      'sql_too_costly',
      /planner estimates/,
    ],
    // A LIMIT (or EXISTS) inside the query makes the planner count only the first rows of the
    // cross join under it, which a filter that never matches would run to its end: each is
    // refused by its worst case. (Here filters match at once: the old cap ran all but EXISTS.)
    [
      'an inner LIMIT over a cross join',
      `select * from (select a.name from sql_entities a cross join sql_entities b
         cross join sql_entities c limit 1) s`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'a WITH query with a LIMIT',
      `with x as (select a.name from sql_entities a, sql_entities b, sql_entities c limit 1)
       select * from x`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'a materialized WITH query with a LIMIT',
      `with x as materialized (select a.name from sql_entities a, sql_entities b, sql_entities c
         limit 1) select * from x`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'a subquery with a LIMIT in the select list',
      `select (select a.name from sql_entities a, sql_entities b, sql_entities c limit 1) as n`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'a correlated subquery with a LIMIT',
      `select d.title, (select a.name from sql_entities a, sql_entities b, sql_entities c
         where a.name || b.name || c.name <> d.title limit 1) from sql_documents d`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'EXISTS over a cross join',
      `select exists (select from sql_entities a, sql_entities b, sql_entities c
         where a.name || b.name || c.name <> 'none') as found`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'a LIMIT over a cross join run once for each row',
      `select e.name, (select a.name from sql_entities a, sql_entities b
         where a.name || b.name <> e.name limit 1) from sql_entities e`,
      'sql_too_costly',
      /planner estimates/,
    ],
    [
      'a set-returning function, whose rows the planner guesses',
      'select unnest(array_agg(name)) from sql_entities',
      'sql_refused',
      /unnest/,
    ],
    [
      'a lateral join with a LIMIT',
      `select d.title, x.n from sql_documents d cross join lateral (select a.name || d.title as n
         from sql_entities a, sql_entities b, sql_entities c limit 1) x`,
      'sql_too_costly',
      /planner estimates/,
    ],
  ])('%s', async (_name, query, code, detail) => {
    const before = await stateOfDatabase()
    const res = await run(admin, query)
    expect(res.statusCode, res.body).toBe(code === 'sql_too_costly' ? 422 : 400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    const problem = res.json() as { code: string; detail: string }
    expect(problem.code).toBe(code)
    expect(problem.detail).toMatch(detail)
    expect(await stateOfDatabase()).toEqual(before)
  })

  it("never reads another organisation's rows", async () => {
    const body = (
      await run(admin, `select title from sql_documents where title like '%merger%'`)
    ).json() as Result
    expect(body.rows).toEqual([])
    const all = (await run(other, 'select title from sql_documents')).json() as Result
    expect(all.rows).toEqual([['Other firm merger']])
  })

  it('leaves the role and the organisation of the next request as they were', async () => {
    await run(admin, 'reset role')
    const body = (await run(admin, 'select count(*)::int as n from sql_documents')).json() as Result
    expect(body.rows).toEqual([[2]])
  })

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'runs, on PostgreSQL, on a login role that is no superuser and cannot bypass RLS',
    async () => {
      await run(admin, 'select count(*) from sql_documents')
      const logins = await rows<{ super: boolean; bypass: boolean; owns: boolean }>(sql`
        select r.rolsuper as super, r.rolbypassrls as bypass,
               exists (select 1 from pg_class c where c.relowner = r.oid) as owns
        from pg_stat_activity a join pg_roles r on r.rolname = a.usename
        where a.datname = current_database() and a.usename <> current_user`)
      expect(logins.length).toBeGreaterThan(0)
      expect(logins.every((l) => !l.super && !l.bypass && !l.owns)).toBe(true)
    },
  )

  // PostgreSQL only (npm run test:server): PGlite has one connection, so nothing else can hold a
  // lock there, and it cannot interrupt a statement. Here a query with the cheapest of plans is
  // slow while another transaction holds the table its view reads, and statement_timeout must
  // stop the runner's statement all the same. (A query slow by its own work but cheap to the
  // planner would be one the cost cap lets run on PGlite: the attacks above refuse them.)
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'stops a query that outlives statement_timeout on PostgreSQL, changing nothing',
    async () => {
      const before = await stateOfDatabase()
      const res = await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table entities in access exclusive mode`)
        return run(admin, 'select count(*) from sql_entities')
      })
      expect(res.statusCode, res.body).toBe(422)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json()).toMatchObject({
        code: 'sql_timeout',
        detail: expect.stringMatching(/stopped/),
      })
      expect(await stateOfDatabase()).toEqual(before)
    },
  )

  it('is refused by the database too if the parser let an auth table through', async () => {
    const refused = await rows<{ ok: boolean }>(sql`select
      has_table_privilege('lexdesk_sql', 'session', 'select') as ok
      union all select has_table_privilege('lexdesk_sql', 'account', 'select')
      union all select has_table_privilege('lexdesk_sql', 'verification', 'select')
      union all select has_column_privilege('lexdesk_sql', 'documents', 'content', 'select')
      union all select has_table_privilege('lexdesk_sql', 'api_keys', 'select')
      union all select has_table_privilege('lexdesk_sql', 'sql_queries', 'select')`)
    expect(refused.map((r) => r.ok)).toEqual([false, false, false, false, false, false])
  })
})
