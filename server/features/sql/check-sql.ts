/**
 * The SQL runner's parser check (decision 0061): reads a query with PostgreSQL's own grammar
 * (libpg-query, PostgreSQL 17's parser in WASM) and accepts it only if it is exactly one SELECT
 * (a WITH whose every query is a SELECT, not recursive) built from allow-listed pieces: the
 * sql_* views, the functions, operators, casts and keywords of sql-allow-list.ts, and the node
 * kinds listed here. Everything else anywhere in the tree — another relation, a function outside
 * the list, a locking clause, SELECT INTO, a writing CTE, a parameter, any other statement — is
 * refused. The text that runs is the accepted tree printed back by the same library (so comments
 * and string tricks in the original never reach the database) under a row cap, and that text is
 * parsed and checked again.
 */
import { deparse, parse } from 'libpg-query'
import { AppError } from '../../errors/app-error'
import {
  SQL_EXPRESSION_KINDS,
  SQL_FUNCTIONS,
  SQL_OPERATORS,
  SQL_TYPES,
  SQL_VALUE_KEYWORDS,
} from './sql-allow-list'
import { SQL_VIEWS } from './sql-views'

/** The most rows a query answers; one more is fetched to tell the caller there were more. */
export const SQL_ROW_CAP = 1000

/** The longest query text accepted, in characters. */
export const SQL_MAX_LENGTH = 20_000

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Node = { [key: string]: Json }

/** Node kinds that are allowed wherever they occur; their children are checked in turn. */
const PLAIN_NODES = new Set([
  'A_ArrayExpr',
  'A_Const',
  'A_Indices',
  'A_Star',
  'BoolExpr',
  'BooleanTest',
  'CaseExpr',
  'CaseWhen',
  'CoalesceExpr',
  'GroupingSet',
  'Integer',
  'Float',
  'Boolean',
  'String',
  'JoinExpr',
  'List',
  'MinMaxExpr',
  'NullTest',
  'RangeSubselect',
  'ResTarget',
  'RowExpr',
  'SortBy',
  'WindowDef',
])

/** The parts of a SELECT that may be present: not INTO, not a locking clause. */
const SELECT_KEYS = new Set([
  'all',
  'distinctClause',
  'fromClause',
  'groupClause',
  'groupDistinct',
  'havingClause',
  'larg',
  'limitCount',
  'limitOffset',
  'limitOption',
  'op',
  'rarg',
  'sortClause',
  'targetList',
  'valuesLists',
  'whereClause',
  'windowClause',
  'withClause',
])

const views: ReadonlySet<string> = new Set(SQL_VIEWS)

/** What the walk found that only the database can judge (reset for each check). */
const found = { fields: new Set<string>() }

function refuse(detail: string): never {
  throw new AppError('sql_refused', detail)
}

function isNode(value: Json): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The strings of a list of String nodes (a qualified name), or null if it holds anything else. */
function names(list: Json): string[] | null {
  if (!Array.isArray(list)) return null
  const out: string[] = []
  for (const item of list) {
    const sval = isNode(item) && isNode(item.String ?? null) ? (item.String as Node).sval : null
    if (typeof sval !== 'string') return null
    out.push(sval)
  }
  return out
}

/** A qualified name reduced to its last part, when it is unqualified or in pg_catalog. */
function catalogName(parts: string[] | null): string | null {
  if (!parts || parts.length === 0 || parts.length > 2) return null
  if (parts.length === 2 && parts[0] !== 'pg_catalog') return null
  return parts[parts.length - 1]!.toLowerCase()
}

/** Checks one SELECT (a node's body, or a set operation's arm) with the CTE names in scope. */
function checkSelect(select: Node, scope: ReadonlySet<string>): void {
  for (const key of Object.keys(select)) {
    if (key === 'lockingClause')
      refuse(
        'FOR UPDATE, FOR SHARE and other locking clauses are not allowed: the runner only reads.',
      )
    if (key === 'intoClause') refuse('SELECT INTO creates a table: the runner only reads.')
    if (!SELECT_KEYS.has(key))
      refuse(`This query uses a part of SELECT the runner does not allow (${key}).`)
  }
  let inner = scope
  const withClause = select.withClause
  if (isNode(withClause ?? null)) {
    const clause = withClause as Node
    if (clause.recursive)
      refuse('WITH RECURSIVE is not allowed: its cost cannot be known before it runs.')
    const visible = new Set(scope)
    for (const item of Array.isArray(clause.ctes) ? clause.ctes : []) {
      const cte = isNode(item) ? (item.CommonTableExpr ?? null) : null
      if (!isNode(cte)) refuse('WITH may only name queries.')
      const query = cte.ctequery ?? null
      if (!isNode(query) || !isNode(query.SelectStmt ?? null)) {
        refuse('Every query of a WITH must be a SELECT: INSERT, UPDATE and DELETE are not allowed.')
      }
      for (const key of Object.keys(cte)) {
        if (
          !['ctename', 'aliascolnames', 'ctematerialized', 'ctequery', 'location'].includes(key)
        ) {
          refuse(`This WITH uses a clause the runner does not allow (${key}).`)
        }
      }
      // A query of a (non-recursive) WITH sees only the ones named before it.
      checkSelect(query.SelectStmt as Node, visible)
      if (typeof cte.ctename === 'string') visible.add(cte.ctename)
      walk(cte.aliascolnames ?? null, visible)
    }
    inner = visible
  }
  for (const [key, value] of Object.entries(select)) {
    if (key === 'withClause') continue
    if (key === 'larg' || key === 'rarg') {
      if (isNode(value)) checkSelect(value, inner)
      continue
    }
    walk(value, inner)
  }
}

/** Checks one node (a `{ Kind: body }` object) with the CTE names in scope. */
function checkNode(kind: string, body: Node, scope: ReadonlySet<string>): void {
  switch (kind) {
    case 'SelectStmt':
      return checkSelect(body, scope)
    case 'RangeVar': {
      const name = typeof body.relname === 'string' ? body.relname : ''
      if (body.schemaname || body.catalogname) {
        refuse(
          `Only the sql_* views can be read, without a schema name (not ${body.schemaname}.${name}).`,
        )
      }
      if (!views.has(name) && !scope.has(name)) {
        refuse(`"${name}" cannot be read: only the sql_* views (${SQL_VIEWS.join(', ')}) can.`)
      }
      return walk(body.alias ?? null, scope)
    }
    case 'FuncCall': {
      const name = catalogName(names(body.funcname ?? null))
      if (!name || !SQL_FUNCTIONS.has(name)) {
        const shown = (names(body.funcname ?? null) ?? ['?']).join('.')
        refuse(`The function ${shown} is not allowed in the SQL runner.`)
      }
      if (body.func_variadic) refuse('VARIADIC calls are not allowed.')
      for (const [key, value] of Object.entries(body)) if (key !== 'funcname') walk(value, scope)
      return
    }
    case 'A_Expr': {
      const op = names(body.name ?? null)
      const name = op && op.length === 1 ? op[0]! : null
      const between = typeof body.kind === 'string' && body.kind.includes('BETWEEN')
      if (
        !SQL_EXPRESSION_KINDS.has(String(body.kind)) ||
        (!between && (!name || !SQL_OPERATORS.has(name)))
      ) {
        refuse(
          `The operator ${op ? op.join('.') : String(body.kind)} is not allowed in the SQL runner.`,
        )
      }
      for (const [key, value] of Object.entries(body)) if (key !== 'name') walk(value, scope)
      return
    }
    case 'TypeCast': {
      const typeName = isNode(body.typeName ?? null) ? (body.typeName as Node) : {}
      const name = catalogName(names(typeName.names ?? null))
      if (!name || !SQL_TYPES.has(name) || typeName.setof || typeName.pct_type) {
        refuse(`Casting to ${(names(typeName.names ?? null) ?? ['?']).join('.')} is not allowed.`)
      }
      walk(typeName.typmods ?? null, scope)
      return walk(body.arg ?? null, scope)
    }
    case 'SubLink': {
      // `x op ANY (SELECT …)`: the operator is named here, as in A_Expr.
      const op = body.operName === undefined ? null : names(body.operName)
      if (op && (op.length !== 1 || !SQL_OPERATORS.has(op[0]!))) {
        refuse(`The operator ${op.join('.')} is not allowed in the SQL runner.`)
      }
      for (const [key, value] of Object.entries(body)) if (key !== 'operName') walk(value, scope)
      return
    }
    case 'SQLValueFunction':
      if (!SQL_VALUE_KEYWORDS.has(String(body.op))) {
        refuse(
          'Only the clock keywords (CURRENT_DATE, CURRENT_TIMESTAMP, …) are allowed, not the user names.',
        )
      }
      return
    case 'ColumnRef':
    case 'A_Indirection': {
      // `x.f` is `f(x)` when x has no column f and f is a function of x's type (even on a
      // view's row): the names after a qualifier go to the caller, which checks them against
      // the catalog's functions (run-sql.ts).
      const fields = names(body.fields ?? null) ?? []
      for (const field of fields.slice(1)) found.fields.add(field)
      for (const item of Array.isArray(body.indirection) ? body.indirection : []) {
        const sval = isNode(item) && isNode(item.String ?? null) ? (item.String as Node).sval : null
        if (typeof sval === 'string') found.fields.add(sval)
      }
      for (const value of Object.values(body)) walk(value, scope)
      return
    }
    default:
      if (!PLAIN_NODES.has(kind))
        refuse(`This query uses ${kind}, which the SQL runner does not allow.`)
      for (const value of Object.values(body)) walk(value, scope)
  }
}

/** Walks any part of the tree: lists, inline structures and nodes alike. */
function walk(value: Json, scope: ReadonlySet<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, scope)
    return
  }
  if (!isNode(value)) return
  const keys = Object.keys(value)
  const kind = keys[0]
  if (keys.length === 1 && kind && /^[A-Z]/.test(kind) && isNode(value[kind] ?? null)) {
    return checkNode(kind, value[kind] as Node, scope)
  }
  for (const item of Object.values(value)) walk(item, scope)
}

async function parseOrRefuse(text: string): Promise<Node[]> {
  let tree: { stmts?: { stmt?: Json }[] }
  try {
    tree = (await parse(text)) as unknown as typeof tree
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    refuse(`The query could not be read: ${message}.`)
  }
  const statements = tree.stmts ?? []
  if (statements.length !== 1) {
    refuse(
      statements.length === 0
        ? 'Write one SELECT query.'
        : `Write one statement only (this text holds ${statements.length}).`,
    )
  }
  const stmt = statements[0]!.stmt ?? null
  if (!isNode(stmt) || !isNode(stmt.SelectStmt ?? null)) {
    const kind = isNode(stmt) ? Object.keys(stmt)[0] : 'nothing'
    refuse(`Only SELECT queries can run (this is ${kind}).`)
  }
  return [stmt]
}

/** A query the parser check accepted. */
export interface CheckedSql {
  /** The SQL to run: the query printed back from its tree under the row cap. */
  text: string
  /**
   * Names read as a field of a row or value (`x.f`, `(x).f`): PostgreSQL takes `x.f` for the
   * call `f(x)` when `x` has no column `f`, so the caller refuses those that name a function
   * outside the allow-list and no column of the views.
   */
  fields: string[]
}

/**
 * Checks `text` and answers the SQL to run, `SELECT * FROM (…) AS q LIMIT SQL_ROW_CAP + 1` around
 * the query printed back from its tree, with the field names the database must judge.
 * @throws AppError `sql_refused` (400) naming what is not allowed, or why the text is unreadable
 */
export async function checkSql(text: string): Promise<CheckedSql> {
  if (!text.trim()) refuse('Write one SELECT query.')
  if (text.length > SQL_MAX_LENGTH)
    refuse(`Queries may be at most ${SQL_MAX_LENGTH} characters long.`)
  const [stmt] = await parseOrRefuse(text)
  // The walk is synchronous: no other check runs between this reset and the read below.
  found.fields = new Set()
  checkSelect(stmt!.SelectStmt as Node, new Set())
  const printed = await deparse({ version: 170004, stmts: [{ stmt }] } as never)
  const wrapped = `SELECT * FROM (\n${printed}\n) AS q LIMIT ${SQL_ROW_CAP + 1}`
  const [again] = await parseOrRefuse(wrapped)
  found.fields = new Set()
  checkSelect(again!.SelectStmt as Node, new Set())
  return { text: wrapped, fields: [...found.fields] }
}
