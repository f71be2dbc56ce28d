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
 * its value. Values go as they are, without a column's mapping to the driver (a text or uuid
 * column's is none), and must not be arrays (Drizzle would write an array as a list). Throws an
 * Error when the rendered text's parameters do not number one per parameter in order (never for
 * Drizzle's own render).
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
