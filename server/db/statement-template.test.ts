import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { documents } from './schema'
import { statementTemplate } from './statement-template'

const dialect = new PgDialect()

describe('statementTemplate', () => {
  it('renders as the statement built with the values would, placeholders filled in order', () => {
    const build = (type: unknown, limit: unknown) =>
      sql`select ${documents.id} from ${documents} where ${documents.documentType} = ${type}
        and ${documents.title} <> ${'x'} limit ${limit}`
    const fill = statementTemplate(build(sql.placeholder('type'), sql.placeholder('limit')))
    const filled = dialect.sqlToQuery(fill({ type: 'memo', limit: 50 }))
    expect(filled).toEqual(dialect.sqlToQuery(build('memo', 50)))
    expect(filled.params).toEqual(['memo', 'x', 50])
    expect(dialect.sqlToQuery(fill({ type: 'nda', limit: 2 })).params).toEqual(['nda', 'x', 2])
    // Its rendered form is the same text and parameters, without a render per run.
    expect({ sql: fill.text, params: fill.params({ type: 'nda', limit: 2 }) }).toEqual({
      sql: dialect.sqlToQuery(build('nda', 2)).sql,
      params: ['nda', 'x', 2],
    })
  })

  it('refuses a rendered text whose parameters are not numbered in order', () => {
    expect(() => statementTemplate(sql.raw('select $2, $1'))).toThrow(/in order/)
  })
})
