/**
 * The indexing job's kind was renamed from 'document-chunks' to 'document-passages' (issue 42,
 * decision 0126) by a data migration: stored jobs and the daily rollups that name a kind follow,
 * and a row an instance still on the old code queues during a rolling upgrade is stored under the
 * new name. The migration's own statements are run here, read from its file.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { sql, type SQL } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './client'
import { newOrganisations, openTestDatabase } from '../test/test-database'

const migrations = path.join(import.meta.dirname, 'migrations')
const migrationFile = readdirSync(migrations).find((name) =>
  name.endsWith('_document-passages-job-kind.sql'),
)

/** The migration's statements but those creating the trigger and its function (already there). */
function renameStatements(): string[] {
  const text = readFileSync(path.join(migrations, migrationFile!), 'utf8')
  return text
    .split('--> statement-breakpoint')
    .map((statement) => statement.replace(/^--.*$/gm, '').trim())
    .filter((statement) => statement !== '' && !statement.startsWith('CREATE'))
}

let database: Database
let orgId: string

beforeAll(async () => {
  database = await openTestDatabase()
  ;[orgId] = (await newOrganisations(database, 1)) as [string]
})
afterAll(() => database.close())

/** The rows `statement` reads, as the superuser (no RLS). */
async function rowsOf<T>(statement: SQL): Promise<T[]> {
  return ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows
}

/** The kinds of org `orgId`'s jobs, oldest first. */
async function storedKinds(): Promise<string[]> {
  const rows = await rowsOf<{ kind: string }>(
    sql`SELECT kind FROM jobs WHERE org_id = ${orgId} ORDER BY created_at, id`,
  )
  return rows.map((row) => row.kind)
}

describe("the indexing job's renamed kind", () => {
  it('exists as a migration', () => {
    expect(migrationFile).toBeDefined()
  })

  it('renames stored document-chunks jobs and their daily rollups, and nothing else', async () => {
    // Rows as the old code stored them, before the migration (its trigger off meanwhile).
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE jobs DISABLE TRIGGER jobs_renamed_kind`)
      await tx.execute(sql`
        INSERT INTO jobs (org_id, kind, status, background, created_at) VALUES
          (${orgId}, 'document-chunks', 'queued', true, now() - interval '2 seconds'),
          (${orgId}, 'analysis', 'queued', false, now() - interval '1 second'),
          (${orgId}, 'document-chunks', 'succeeded', true, now())`)
      await tx.execute(sql`ALTER TABLE jobs ENABLE TRIGGER jobs_renamed_kind`)
      await tx.execute(sql`
        INSERT INTO activity_daily (org_id, app_id, day, metric, count, total_ms) VALUES
          (${orgId}, NULL, '2026-12-01', 'job:document-chunks', 3, 900),
          (${orgId}, NULL, '2026-12-01', 'job:analysis', 2, 400)`)
    })
    expect(await storedKinds()).toEqual(['document-chunks', 'analysis', 'document-chunks'])

    await database.db.transaction(async (tx) => {
      for (const statement of renameStatements()) await tx.execute(sql.raw(statement))
    })

    expect(await storedKinds()).toEqual(['document-passages', 'analysis', 'document-passages'])
    const rollups = await rowsOf<{ metric: string; count: string }>(
      sql`SELECT metric, count FROM activity_daily WHERE org_id = ${orgId} ORDER BY metric`,
    )
    expect(rollups.map((row) => [row.metric, Number(row.count)])).toEqual([
      ['job:analysis', 2],
      ['job:document-passages', 3],
    ])
  })

  it('stores a document-chunks job queued by an instance still on the old code under the new name', async () => {
    const [row] = await rowsOf<{ kind: string }>(
      sql`INSERT INTO jobs (org_id, kind, background) VALUES (${orgId}, 'document-chunks', true)
          RETURNING kind`,
    )
    expect(row?.kind).toBe('document-passages')
  })
})
