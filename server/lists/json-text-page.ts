/**
 * The list kit's one fast path: a list's page as JSON text built by PostgreSQL, sent as it is
 * (issue 42, decisions 0093, 0098, 0123, 0135). Any list may opt in with `jsonTextPage`; the
 * document list does. Everything the fast path needs lives here, behind the kit:
 *
 * - **The page in SQL**: one statement builds `{ items, total, …list-wide facts }` as JSON text
 *   (each item a row as JSON, its columns named as the API's fields). On embedded PGlite, reading
 *   50 rows of nine fields through its JavaScript protocol reader and copying them across threads
 *   cost more than the query itself (decision 32).
 * - **Rendered once**: the statement of each combination of filters is rendered by Drizzle once
 *   (`statementTemplate`) and read past Drizzle's execute path (`readRendered`): Drizzle's walk of
 *   the statement cost about 6 % of a request's CPU (decision 0093).
 * - **A string scanner**: PostgreSQL writes a UTC time as `2026-11-24T13:06:23.123456`; the
 *   page's time fields are put in the API's form (`…23.123Z`) by a scan of the text
 *   (`withApiTimes`), not by parsing the page and serializing it again.
 * - **Sent as it is**: Fastify neither parses nor serializes a string sent with a JSON content
 *   type, so the route's declared response schema is not checked at run time; the list's tests
 *   check the page against the kit's ordinary Drizzle page of the same list (`readDrizzle`), and
 *   that against the schema.
 *
 * Its measurement: `npm run bench -- --only tenant-read` (`list_rps`, `list_to_readyz_ratio_c50`)
 * and `--only server` (`server_list_one_instance_rps` against PostgreSQL's own limit), each with a
 * budget in bench/budgets.ts (decision 0135). A list opts in only with such a figure.
 */
import { and, desc, is, Placeholder, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { PgDialect, PgTimestamp, type PgColumn, type PgTable } from 'drizzle-orm/pg-core'
import type { FastifyReply } from 'fastify'
import type { Db } from '../db/client'
import { readRendered, withTenant, withTenantReads, type TenantScope } from '../db/tenant'
import { readListPage, type PageWindow } from './list-kit'

const dialect = new PgDialect()

/** A statement rendered once, filled per run (statementTemplate). */
export interface StatementTemplate {
  /** The statement with `values` (by placeholder name) in place of its placeholders. */
  (values: Record<string, unknown>): SQL
  /** The rendered text, `$1`, `$2`… in order: one string, the same for every run. */
  readonly text: string
  /** A run's parameters in the text's order: `values` in place of the placeholders. */
  params(values: Record<string, unknown>): unknown[]
}

/**
 * Renders `statement` once; answers the template giving it with `values` (by placeholder name)
 * in place of its placeholders, as an `sql` statement or as its rendered text and parameters
 * (a read that skips Drizzle's render, decision 0098); a parameter that was no placeholder keeps
 * its value. Drizzle renders an `sql` statement by walking its chunks on every run; the template
 * answers an `sql` statement of the rendered text with the values as its only chunks, which
 * Drizzle renders without walking anything. Values go as they are, without a column's mapping to
 * the driver (a text or uuid column's is none), and must not be arrays (Drizzle would write an
 * array as a list). Throws an Error when the rendered text's parameters do not number one per
 * parameter in order (never for Drizzle's own render).
 */
export function statementTemplate(statement: SQL): StatementTemplate {
  const rendered = dialect.sqlToQuery(statement)
  const pieces = rendered.sql.split(/\$(\d+)/)
  const strings = pieces.filter((_, i) => i % 2 === 0)
  const numbers = pieces.filter((_, i) => i % 2 === 1).map(Number)
  if (numbers.length !== rendered.params.length || numbers.some((n, i) => n !== i + 1)) {
    throw new Error('statementTemplate: the rendered parameters are not $1, $2… in order')
  }
  const template = Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray
  const params = (values: Record<string, unknown>) =>
    rendered.params.map((p) => (is(p, Placeholder) ? values[p.name] : p))
  return Object.assign((values: Record<string, unknown>) => sql(template, ...params(values)), {
    text: rendered.sql,
    params,
  })
}

/**
 * A UTC timestamp as PostgreSQL writes it into JSON ("2026-11-24T13:06:23.123456", ISO 8601 with
 * zero to six decimals) in the API's form ("2026-11-24T13:06:23.123Z", milliseconds truncated as
 * `Date` truncates them). Cheaper than `to_char` on the database or `Date` parsing here.
 */
export function utcIso(timestamp: string): string {
  const dot = timestamp.indexOf('.')
  if (dot === -1) return `${timestamp}.000Z`
  return `${timestamp.slice(0, dot + 4).padEnd(dot + 4, '0')}Z`
}

/**
 * `page`, PostgreSQL's JSON text of a page, with each item's time fields named `fields` in the
 * API's form (utcIso). Only a key can match `"name":"`: inside a JSON string every quote is
 * escaped, so a title holding `"createdAt":"` appears as `\"createdAt\":\"`; a null time
 * (`"name":null`) does not match. A scan with indexOf per field: about 18 µs of CPU a page of 50
 * on the loaded 2-core machine, against 29 µs for a regular expression with a replacer and 74 µs
 * for JSON.parse with the times set on the objects (decision 0093).
 */
export function withApiTimes(page: string, fields: readonly string[]): string {
  let text = page
  for (const field of fields) {
    const key = `"${field}":"`
    let out = ''
    let done = 0
    for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, done)) {
      const start = at + key.length
      const end = text.indexOf('"', start)
      out += text.slice(done, start) + utcIso(text.slice(start, end))
      done = end
    }
    text = out + text.slice(done)
  }
  return text
}

/** `name` as a JSON key literal in SQL; a name other than a plain identifier is refused. */
function jsonKey(name: string): SQL {
  if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`jsonTextPage: ${name} is not a plain name`)
  return sql.raw(`'${name}'`)
}

/** What a list opts into the fast path with (jsonTextPage). */
export interface JsonTextPageSpec<Query extends PageWindow, Filter extends string> {
  /** The table listed (row-level security confines it to the tenant). */
  table: PgTable
  /**
   * An item's fields in the API's order: its name → the column. A `timestamp with time zone`
   * column is written in the API's form (utcIso); one without a time zone is refused.
   */
  fields: Record<string, PgColumn>
  /** The order, newest first: field names, each descending, the later ones breaking ties. */
  newestFirst: readonly string[]
  /** Each filter by name: its condition on the value it is given (not named limit/offset). */
  filters: Record<Filter, (value: SQLWrapper | string) => SQL | undefined>
  /** A query's filter values by name: undefined or absent = not filtered by it. */
  values(query: Query): Partial<Record<Filter, string | undefined>>
  /**
   * The total of a listing filtered by `present` (their values): a number in SQL (a counter's
   * sum, say), or 'matches' to count the filter's matches (a window count on the page's rows;
   * an offset past the last match takes a count statement of its own).
   */
  total(present: Partial<Record<Filter, SQLWrapper | string>>): SQL | 'matches'
  /** List-wide facts by name, each a scalar SQL expression read with the page. */
  also: Record<string, SQL>
}

/** One listing's statement (JsonTextPage.statement). */
export interface JsonTextListing {
  /** The statement as Drizzle's `sql`, built when asked for (PGlite's read, the server bench's). */
  readonly statement: SQL
  /** The same statement as its text rendered once and its values (readRendered). */
  rendered: { sql: string; params: unknown[] }
  /** Whether its total counts the matches of `where` (plans are then not reused). */
  countsMatches: boolean
  /** The filter with its values, for a count of its own. */
  where: SQL | undefined
}

/** A list on the fast path (jsonTextPage). */
export interface JsonTextPage<Query extends PageWindow> {
  /** The one statement of a listing of `query` (exported for the server bench's bare client). */
  statement(query: Query): JsonTextListing
  /**
   * The page of `query` as the API's JSON text: `{ items, total, …also }`, items in the spec's
   * order. One statement in one tenant read, plans reused unless its total counts matches.
   * Throws what the database throws.
   */
  read(db: Db, principal: TenantScope, query: Query): Promise<string>
  /**
   * `read`'s page sent as the answer's body (200, application/json); resolves once sent (a
   * route's handler returns it: Fastify leaves an answer already sent as it is).
   */
  send(reply: FastifyReply, db: Db, principal: TenantScope, query: Query): Promise<void>
  /**
   * The same page read by the kit's ordinary Drizzle path (readListPage, times as `Date`'s
   * ISO text): what the list would answer without the fast path, for the tests that hold the two
   * together and for a bench's A/B.
   */
  readDrizzle(db: Db, principal: TenantScope, query: Query): Promise<Record<string, unknown>>
}

/**
 * A list on the kit's fast path, from `spec` (see the module's docstring). Throws an Error when a
 * field is a timestamp without a time zone or an order names no field.
 */
export function jsonTextPage<Query extends PageWindow, Filter extends string>(
  spec: JsonTextPageSpec<Query, Filter>,
): JsonTextPage<Query> {
  const names = Object.keys(spec.fields)
  const times = names.filter((name) => {
    const column = spec.fields[name]!
    if (!is(column, PgTimestamp)) return false
    if (!column.withTimezone) throw new Error(`jsonTextPage: ${name} has no time zone`)
    return true
  })
  const order = spec.newestFirst.map((name) => {
    const column = spec.fields[name]
    if (!column) throw new Error(`jsonTextPage: the order names ${name}, not a field`)
    return column
  })
  const filterNames = Object.keys(spec.filters) as Filter[]
  const whereOf = (value: (name: Filter) => SQLWrapper | string | undefined) =>
    and(
      ...filterNames.map((name) => {
        const v = value(name)
        return v === undefined ? undefined : spec.filters[name](v)
      }),
    )
  const present = (values: Partial<Record<Filter, string | undefined>>) =>
    filterNames.filter((name) => values[name] !== undefined)
  /** `filters` by name, each with its placeholder (a rendered statement's values). */
  const placeholdersOf = (filters: readonly Filter[]) =>
    Object.fromEntries(filters.map((name) => [name, sql.placeholder(name)])) as unknown as Partial<
      Record<Filter, SQLWrapper>
    >

  /** The statement of a listing filtered by `filters`, placeholders for values and window. */
  const build = (filters: readonly Filter[]) => {
    const placeholders = placeholdersOf(filters)
    const where = whereOf((name) => placeholders[name])
    const total = spec.total(placeholders)
    const matches = total === 'matches'
    const columns = sql.join(
      names.map((name) => {
        const column = spec.fields[name]!
        const value = times.includes(name) ? sql`${column} at time zone 'UTC'` : sql`${column}`
        return sql`${value} as ${sql.identifier(name)}`
      }),
      sql`, `,
    )
    const itemOrder = sql.join(
      spec.newestFirst.map((name) => sql`item.${sql.identifier(name)} desc`),
      sql`, `,
    )
    const also = Object.entries(spec.also).map(([name, value]) => sql`, ${jsonKey(name)}, ${value}`)
    return sql`with page as (
      select ${columns}, ${matches ? sql`count(*) over ()` : sql`null`} as matches
      from ${spec.table} ${where ? sql`where ${where}` : sql``}
      order by ${sql.join(
        order.map((column) => sql`${column} desc`),
        sql`, `,
      )}
      limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')})
    select json_build_object(
      'items', coalesce((select json_agg(item order by ${itemOrder})
        from (select ${sql.join(
          names.map((name) => sql.identifier(name)),
          sql`, `,
        )} from page) as item), '[]'),
      'total', ${matches ? sql`(select matches from page limit 1)` : total}${sql.join(also)})::text as page`
  }

  /** Each combination of filters' statement, rendered once. */
  const templates = new Map<string, StatementTemplate>()

  const statement = (query: Query): JsonTextListing => {
    const values = spec.values(query)
    const filters = present(values)
    const key = filters.join('/')
    let fill = templates.get(key)
    if (!fill) {
      fill = statementTemplate(build(filters))
      templates.set(key, fill)
    }
    const run = { ...values, limit: query.limit, offset: query.offset }
    const countsMatches = spec.total(placeholdersOf(filters)) === 'matches'
    return {
      get statement() {
        return fill(run)
      },
      rendered: { sql: fill.text, params: fill.params(run) },
      countsMatches,
      where: whereOf((name) => values[name]),
    }
  }

  /** The value of one scalar SQL expression, read on `tx` (a Drizzle query: one query). */
  const scalar = (tx: Db, value: SQL): PromiseLike<unknown> =>
    tx
      .select({ value })
      .from(sql`(select 1) as one`)
      .then(([row]) => row?.value)

  /** The matches of `where`, counted in a statement of its own. */
  const countMatches = (db: Db, principal: TenantScope, where: SQL | undefined) =>
    withTenant(db, principal, async (tx) => {
      const [row] = await tx
        .select({ total: sql<number>`count(*)`.mapWith(Number) })
        .from(spec.table)
        .where(where)
      return row?.total ?? 0
    })

  const read = (db: Db, principal: TenantScope, query: Query): Promise<string> => {
    const listing = statement(query)
    // A page walking an index plans the same for every value: plan it once (not a search's).
    const page = withTenantReads(
      db,
      principal,
      (tx) => [readRendered(tx, listing.rendered, () => listing.statement)],
      { reusePlans: !listing.countsMatches },
    ).then(([result]) => {
      const [row] = (result as unknown as { rows: { page: string }[] }).rows
      return withApiTimes(row?.page ?? '{}', times)
    })
    if (!listing.countsMatches) return page
    // The total rode on the page's rows unless the page has none (an offset past the last match).
    return page.then(async (text) => {
      const parsed = JSON.parse(text) as { total: number | null }
      if (parsed.total !== null) return text
      parsed.total = await countMatches(db, principal, listing.where)
      return JSON.stringify(parsed)
    })
  }

  return {
    statement,
    read,
    // Not an async function: a listing awaits its one read, not a wrapper too (decision 0098).
    send: (reply, db, principal, query) =>
      read(db, principal, query).then((text) => {
        reply.type('application/json; charset=utf-8').send(text)
      }),
    async readDrizzle(db, principal, query) {
      const values = spec.values(query)
      const where = whereOf((name) => values[name])
      const total = spec.total(
        Object.fromEntries(present(values).map((name) => [name, values[name]!])) as Partial<
          Record<Filter, string>
        >,
      )
      const also = Object.entries(spec.also)
      const {
        rows,
        total: counted,
        also: facts,
      } = await readListPage(
        db,
        principal,
        query,
        (tx) => ({
          rows: tx
            .select(spec.fields)
            .from(spec.table as PgTable)
            .where(where)
            .orderBy(...order.map((column) => desc(column))),
          total:
            total === 'matches' ? tx.$count(spec.table, where) : scalar(tx, total).then(Number),
          also: also.map(([, value]) => scalar(tx, value)),
        }),
        { reusePlans: total !== 'matches' },
      )
      const items = (rows as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(
          names.map((name) => [
            name,
            times.includes(name) && row[name] instanceof Date ? row[name].toISOString() : row[name],
          ]),
        ),
      )
      return {
        items,
        total: counted,
        ...Object.fromEntries(also.map(([name], i) => [name, facts[i]])),
      }
    },
  }
}
