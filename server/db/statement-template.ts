/**
 * A statement rendered once and filled per run (issue 28, decision 0093). Drizzle renders an
 * `sql` statement by walking its chunks (columns, tables, nested statements) on every run; for
 * the library's listing that walk cost about 6 % of a request's CPU. A template renders the
 * statement once, built with `sql.placeholder(name)` where its values go, and answers for each
 * run an `sql` statement of the rendered text with the values as its only chunks, which Drizzle
 * renders (numbering the parameters $1, $2… again) without walking anything.
 */
import { is, Placeholder, sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'

const dialect = new PgDialect()

/**
 * Renders `statement` once; answers a function giving it with `values` (by placeholder name)
 * in place of its placeholders; a parameter that was no placeholder keeps its value. Values go
 * as they are, without a column's mapping to the driver (a text or uuid column's is none), and
 * must not be arrays (Drizzle would write an array as a list). Throws an Error when the rendered
 * text's parameters do not number one per parameter in order (never for Drizzle's own render).
 */
export function statementTemplate(statement: SQL): (values: Record<string, unknown>) => SQL {
  const rendered = dialect.sqlToQuery(statement)
  const pieces = rendered.sql.split(/\$(\d+)/)
  const strings = pieces.filter((_, i) => i % 2 === 0)
  const numbers = pieces.filter((_, i) => i % 2 === 1).map(Number)
  if (numbers.length !== rendered.params.length || numbers.some((n, i) => n !== i + 1)) {
    throw new Error('statementTemplate: the rendered parameters are not $1, $2… in order')
  }
  const template = Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray
  const params = rendered.params
  return (values) => sql(template, ...params.map((p) => (is(p, Placeholder) ? values[p.name] : p)))
}
