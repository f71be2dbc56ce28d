/**
 * Every id column of every archive table is classified (decision 0103), found from the catalog
 * rather than a list: a column that holds a uuid, ends in `_id` or `_by`, or has a foreign key is
 * the table's key, a reference (`refs`, which an import remaps to the archive's own rows and never
 * keeps), a person (`people`, never pointed at this server's users) or left out of the archive
 * (`omit`). A column added later fails here until the importer knows what it names.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/client'
import { openTestDatabase } from '../../test/test-database'
import { EXPORTED_TABLES } from './archive-format'

let database: Database
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

interface Column {
  table: string
  column: string
  type: string
  references: string | null
}

/** Every column of the archive's tables, with the table its foreign key names (if any). */
async function columns(): Promise<Column[]> {
  const names = EXPORTED_TABLES.map((t) => t.name)
  const result = (await database.db.execute(sql`
    SELECT c.table_name AS table, c.column_name AS column, c.udt_name AS type,
      (SELECT min(ref.relname) FROM pg_constraint k
         JOIN pg_class own ON own.oid = k.conrelid
         JOIN pg_class ref ON ref.oid = k.confrelid
         JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
       WHERE k.contype = 'f' AND own.relname = c.table_name AND a.attname = c.column_name
         AND ref.relname <> 'organization') AS references
    FROM information_schema.columns c
    WHERE c.table_schema = current_schema()
      AND c.table_name IN (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})`)) as unknown as { rows: Column[] }
  return result.rows
}

describe('the archive tables and the importer', () => {
  it('classifies every id column of every archive table as key, reference, person or left out', async () => {
    const all = await columns()
    expect(new Set(all.map((c) => c.table))).toEqual(new Set(EXPORTED_TABLES.map((t) => t.name)))
    const unclassified: string[] = []
    const misclassified: string[] = []
    for (const { table, column, type, references } of all) {
      if (column === 'org_id') continue
      const t = EXPORTED_TABLES.find((x) => x.name === table)!
      const isId =
        type === 'uuid' || column.endsWith('_id') || column.endsWith('_by') || references !== null
      const known =
        column === t.key || column in t.refs || t.people.includes(column) || t.omit.includes(column)
      if (isId && !known) unclassified.push(`${table}.${column}`)
      // A foreign key to a user is a person; one to a tenant table, a reference to that table.
      if (references === 'user' && !t.people.includes(column))
        misclassified.push(`${table}.${column} names a user`)
      if (references && references !== 'user' && t.refs[column] !== references)
        misclassified.push(`${table}.${column} names ${references}`)
    }
    expect(unclassified).toEqual([])
    expect(misclassified).toEqual([])
  })

  it('names only columns that exist, and parents the archive lists before their children', async () => {
    const all = await columns()
    const order = EXPORTED_TABLES.map((t) => t.name)
    for (const t of EXPORTED_TABLES) {
      for (const column of [...Object.keys(t.refs), ...t.people])
        expect(
          all.some((c) => c.table === t.name && c.column === column),
          column,
        ).toBe(true)
      for (const [column, parent] of Object.entries(t.refs))
        if (parent !== '*')
          expect(order.indexOf(parent), `${t.name}.${column}`).toBeLessThan(order.indexOf(t.name))
    }
  })
})
