/**
 * Reviews in organisation archives (issue 44, decision 0143), through the real app, on PGlite and
 * by `npm run test:server` on PostgreSQL: an export carries reviews with their columns, rows and
 * cells; a clone copies them as they are; an import gives every one a new id, points no person at
 * this server's users (an override's author included), brings running cells back pending, queues
 * the fills its reviews need (an app-wide review then takes the imported app's documents) and
 * publishes them into an existing organisation too; a hostile archive's review lines end the job
 * with a clear problem and leave nothing behind.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { zipSync } from 'fflate'
import { and, eq, sql } from 'drizzle-orm'
import { signedInMember, testAppForFile, type TestMember } from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { finishedOrgJob, succeededExport } from '../../test/organisation-jobs'
import { ndjson, readZip } from '../../test/read-zip'
import { expectSameOrganisation, exportOf } from '../../test/archive-comparison'
import { appOf } from '../../test/app-of'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { RISKY_SERVICES_AGREEMENT } from '../../test/test-contracts'
import {
  documents,
  jobs,
  organization,
  reviewCells,
  reviewColumns,
  reviewRows,
  reviews,
} from '../../db/schema'
import { ImportedReviews, reviewCellId, UNCHECKED_CITATION } from './import-reviews'

const t = await testAppForFile()

type Row = Record<string, unknown>

let owner: TestMember
let entries: Map<string, Buffer>
/** The source's documents: two of the library, one of the app. */
let docs: { first: string; second: string; ofApp: string }
let selectionReviewId: string
let appReviewId: string

const reviewsUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/reviews`

async function documentOf(m: TestMember, title: string, content: string, appId?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/documents/text`,
    headers: m.headers,
    payload: { title, content, ...(appId ? { appId } : {}) },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

async function reviewOf(m: TestMember, payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: reviewsUrl(m),
    headers: m.headers,
    payload,
  })
  expect(res.statusCode, res.body).toBe(201)
  const review = res.json() as { id: string; fillJob: { id: string } }
  expect((await finishedJob(t, m, review.fillJob.id)).status).toBe('succeeded')
  return review.id
}

/** Rows of `query`, read as the superuser (every organisation). */
const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows

/** The NDJSON rows of `table` in `e`. */
const tableOf = (e: Map<string, Buffer>, table: string) =>
  ndjson(e.get(`tables/${table}.ndjson`)) as Row[]

/** `e` with some tables' rows changed, zipped again with a matching manifest. */
function archiveWith(changes: Record<string, (rows: Row[]) => Row[]>): Uint8Array {
  const manifest = JSON.parse(entries.get('manifest.json')!.toString())
  const files: Record<string, Uint8Array> = {}
  for (const [name, bytes] of entries) {
    if (name === 'manifest.json') continue
    const table = /^tables\/(.+)\.ndjson$/.exec(name)?.[1]
    const change = table ? changes[table] : undefined
    const next = change
      ? Buffer.from(
          change(ndjson(bytes) as Row[])
            .map((r) => `${JSON.stringify(r)}\n`)
            .join(''),
        )
      : bytes
    files[name] = next
    manifest.entries[name] = createHash('sha256').update(next).digest('hex')
  }
  files['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest))
  return zipSync(files)
}

/** Imports `zip` through `m`'s organisation with the form `fields`; the finished job. */
function importedWith(m: TestMember, zip: Uint8Array, fields: Record<string, string>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('zip_file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'org.zip')
  return finishedOrgJob(t, m, 'import', form)
}

const asNewOrg = (zip: Uint8Array, name: string) =>
  importedWith(owner, zip, { create_org_if_missing: 'true', org_name: name })

/** Every review row of organisation `orgId`, read as the superuser. */
async function reviewTablesOf(orgId: string) {
  const db = t.database.db
  return {
    reviews: await db.select().from(reviews).where(eq(reviews.orgId, orgId)),
    columns: await db.select().from(reviewColumns).where(eq(reviewColumns.orgId, orgId)),
    rows: await db.select().from(reviewRows).where(eq(reviewRows.orgId, orgId)),
    cells: await db.select().from(reviewCells).where(eq(reviewCells.orgId, orgId)),
  }
}

/** Nothing of a refused import is left: no organisation of that name, no staging one. */
async function expectNothingLeft(name: string) {
  expect(
    await t.database.db.select().from(organization).where(eq(organization.name, name)),
  ).toEqual([])
  expect(
    await rowsOf(sql`SELECT id FROM organization WHERE metadata LIKE '%importJobId%'`),
  ).toEqual([])
  // The staging organisation went with its rows: no review is left outside a published one.
  expect(
    await rowsOf(sql`SELECT r.id FROM reviews r JOIN organization o ON o.id = r.org_id
      WHERE o.metadata IS NOT NULL AND o.metadata LIKE '%importJobId%'`),
  ).toEqual([])
}

/** A refused import: failed with 422 `archive_invalid` naming `entry`, matching `why`. */
async function expectRefused(zip: Uint8Array, name: string, entry: string, why: RegExp) {
  const job = await asNewOrg(zip, name)
  expect(job.status).toBe('failed')
  expect(job.errorCode).toBe('archive_invalid')
  expect(job.error).toContain(`tables/${entry}.ndjson line`)
  expect(job.error).toMatch(why)
  await expectNothingLeft(name)
}

/**
 * The source organisation and its export, made once inside whichever test asks first (finishedJob
 * polls with expect.poll, which needs a test).
 */
let source: Promise<void> | undefined
const ready = () => (source ??= makeSource())

async function makeSource() {
  owner = await signedInMember(t, 'Review Archive Source')
  const appId = await appOf(t, owner, 'deals')
  docs = {
    first: await documentOf(owner, 'Northwind MSA', SAMPLE_CONTRACT),
    second: await documentOf(owner, 'Risky services', RISKY_SERVICES_AGREEMENT),
    ofApp: await documentOf(owner, 'Deal contract', SAMPLE_CONTRACT, appId),
  }
  selectionReviewId = await reviewOf(owner, {
    name: 'Supplier grid',
    rows: { source: 'selection', documentIds: [docs.first, docs.second] },
    columns: [{ preset: 'term:parties' }, { preset: 'deal:law' }],
  })
  appReviewId = await reviewOf(owner, {
    name: 'Every deal',
    appId,
    rows: { source: 'app' },
    columns: [{ preset: 'term:parties' }],
  })
  const cells = (
    await t.app.inject({
      url: `${reviewsUrl(owner)}/${selectionReviewId}/cells?limit=100`,
      headers: owner.headers,
    })
  ).json().items as { id: string; state: string }[]
  const answered = cells.filter((c) => c.state === 'answered')
  expect(answered.length).toBeGreaterThanOrEqual(2)
  const cellUrl = (id: string, what: string) =>
    `${reviewsUrl(owner)}/${selectionReviewId}/cells/${id}/${what}`
  const overridden = await t.app.inject({
    method: 'PUT',
    url: cellUrl(answered[0]!.id, 'override'),
    headers: owner.headers,
    payload: { override: { answer: null, note: 'Not in the signed copy' } },
  })
  expect(overridden.statusCode, overridden.body).toBe(200)
  const verified = await t.app.inject({
    method: 'PUT',
    url: cellUrl(answered[1]!.id, 'verified'),
    headers: owner.headers,
    payload: { verified: true },
  })
  expect(verified.statusCode, verified.body).toBe(200)
  entries = await readZip((await succeededExport(t, owner)).file.rawPayload)
}

describe('reviews in organisation archives', () => {
  it('exports reviews with their columns, rows and cells, overrides and checks included', async () => {
    await ready()
    const manifest = JSON.parse(entries.get('manifest.json')!.toString())
    expect(manifest.counts).toMatchObject({
      reviews: 2,
      review_columns: 3,
      review_rows: 3,
      review_cells: 5,
    })
    const cells = tableOf(entries, 'review_cells')
    expect(cells.filter((c) => c.verified === true && c.verified_by === owner.userId)).toHaveLength(
      1,
    )
    const [overridden] = cells.filter((c) => c.override !== null)
    expect(overridden!.override).toMatchObject({ note: 'Not in the signed copy', by: owner.userId })
    expect(overridden!.answer).not.toBeNull()
    expect(tableOf(entries, 'reviews').every((r) => !('org_id' in r))).toBe(true)
  })

  it('computes a cell id as the fill writes it (md5 of its row and column ids)', async () => {
    await ready()
    const row = crypto.randomUUID()
    const column = crypto.randomUUID()
    const [fromSql] = await rowsOf<{ id: string }>(sql`SELECT overlay(overlay(
      md5(${row}::uuid::text || '/' || ${column}::uuid::text) placing '4' from 13)
      placing '8' from 17)::uuid::text AS id`)
    expect(reviewCellId(row, column)).toBe(fromSql!.id)
    const [written] = await rowsOf<{ id: string; row_id: string; column_id: string }>(
      sql`SELECT id, row_id, column_id FROM review_cells WHERE review_id = ${selectionReviewId} LIMIT 1`,
    )
    expect(reviewCellId(written!.row_id, written!.column_id)).toBe(written!.id)
  })

  it('imports reviews with new ids, nobody enrolled, running cells pending, and queues their fills', async () => {
    await ready()
    const source = await reviewTablesOf(owner.orgId)
    const running = tableOf(entries, 'review_cells').find(
      (c) => c.review_id === selectionReviewId && c.override === null && c.verified === false,
    )!
    const zip = archiveWith({
      review_cells: (rows) =>
        rows
          .filter((r) => r.review_id !== appReviewId)
          .map((r) => (r.id === running.id ? { ...r, state: 'running' } : r)),
      // The app-wide review comes without rows: its fill adds the app's imported document.
      review_rows: (rows) => rows.filter((r) => r.review_id !== appReviewId),
    })
    const job = await asNewOrg(zip, 'Review Import Copy')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as unknown as { orgId: string }).orgId
    const copy = await reviewTablesOf(orgId)
    expect(copy.reviews.map((r) => r.name).sort()).toEqual(['Every deal', 'Supplier grid'])
    const sourceIds = new Set(
      [source.reviews, source.columns, source.rows, source.cells].flat().map((r) => r.id),
    )
    for (const r of [copy.reviews, copy.columns, copy.rows, copy.cells].flat())
      expect(sourceIds.has(r.id)).toBe(false)
    const copiedDocs = await t.database.db
      .select({ id: documents.id, appId: documents.appId, content: documents.content })
      .from(documents)
      .where(eq(documents.orgId, orgId))
    const content = new Map(copiedDocs.map((d) => [d.id, d.content]))
    for (const r of copy.rows) expect(content.has(r.documentId)).toBe(true)
    expect(copy.reviews.every((r) => r.createdBy === null)).toBe(true)
    const appReview = copy.reviews.find((r) => r.name === 'Every deal')!
    const [importedApp] = await rowsOf<{ id: string }>(
      sql`SELECT id FROM apps WHERE org_id = ${orgId}`,
    )
    expect(appReview.appId).toBe(importedApp!.id)
    for (const c of copy.cells) {
      expect(c.id).toBe(reviewCellId(c.rowId, c.columnId))
      expect(c.verifiedBy).toBeNull()
      const row = copy.rows.find((r) => r.id === c.rowId)!
      expect(c.documentId).toBe(row.documentId)
      if (c.state === 'answered')
        for (const cite of c.citations as { start: number; end: number; text: string }[])
          expect(content.get(c.documentId)!.slice(cite.start, cite.end)).toBe(cite.text)
    }
    expect(copy.cells.filter((c) => c.verified)).toHaveLength(1)
    const overridden = copy.cells.filter((c) => c.override !== null)
    expect(overridden).toHaveLength(1)
    expect(overridden[0]!.override).toMatchObject({ note: 'Not in the signed copy', by: null })
    // The running cell came back pending (ImportedReviews, tested below): the fill queued for its
    // review may have claimed it by now, and answers it again.

    // Fills queued at publication: the review with a pending cell, the app-wide one.
    const copyMember = { ...owner, orgId }
    const fills = await t.database.db
      .select({ id: jobs.id, subjectId: jobs.subjectId })
      .from(jobs)
      .where(and(eq(jobs.orgId, orgId), eq(jobs.kind, 'review-fill')))
    expect(fills.map((f) => f.subjectId).sort()).toEqual(copy.reviews.map((r) => r.id).sort())
    for (const fill of fills)
      expect((await finishedJob(t, copyMember, fill.id)).status).toBe('succeeded')
    const filled = await reviewTablesOf(orgId)
    const appDoc = copiedDocs.find((d) => d.appId === importedApp!.id)!
    expect(filled.rows.filter((r) => r.reviewId === appReview.id).map((r) => r.documentId)).toEqual(
      [appDoc.id],
    )
    expect(filled.cells.filter((c) => c.state === 'pending' || c.state === 'running')).toEqual([])
    expect(filled.cells).toHaveLength(5)
  })

  it('clones reviews as they are, people kept', async () => {
    await ready()
    const job = await finishedOrgJob(t, owner, 'clone', {
      source_org_id: owner.orgId,
      target_org_name: 'Review Clone',
      clone_buckets: true,
    })
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as unknown as { orgId: string }).orgId
    const copy = await reviewTablesOf(orgId)
    expect(copy.cells.find((c) => c.override !== null)!.override).toMatchObject({
      by: owner.userId,
    })
    expect(copy.cells.find((c) => c.verified)!.verifiedBy).toBe(owner.userId)
    expect(copy.reviews.every((r) => r.createdBy === owner.userId)).toBe(true)
    // The app-wide review's fill (queued by the clone) finds nothing to add or answer.
    const fills = await t.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.orgId, orgId), eq(jobs.kind, 'review-fill')))
    for (const fill of fills)
      expect((await finishedJob(t, { ...owner, orgId }, fill.id)).status).toBe('succeeded')
    const b = await exportOf(t, owner, orgId)
    const trace = (row: string) =>
      [
        '"org.imported"',
        '"org.exported"',
        '"org.clone_requested"',
        '"kind":"tenant-',
        'review-fill',
      ].some((mark) => row.includes(mark))
    const only = (e: Map<string, Buffer>) =>
      new Map([...e].filter(([name]) => !name.startsWith('tables/') || name.includes('review')))
    expectSameOrganisation(only(entries), only(b.entries), trace)
  })

  it('publishes reviews into an existing organisation', async () => {
    await ready()
    const target = await signedInMember(t, 'Review Import Target')
    const job = await importedWith(target, archiveWith({}), { target_org_id: target.orgId })
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({
      orgId: target.orgId,
      counts: { reviews: 2, review_columns: 3, review_rows: 3, review_cells: 5 },
    })
    const listed = await t.app.inject({ url: reviewsUrl(target), headers: target.headers })
    expect(
      listed
        .json()
        .items.map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual(['Every deal', 'Supplier grid'])
  })

  it('marks unverified an answered cell whose citation is within the text but not its slice', async () => {
    await ready()
    const answered = tableOf(entries, 'review_cells').find(
      (c) => c.state === 'answered' && c.review_id === selectionReviewId,
    )!
    const zip = archiveWith({
      review_cells: (rows) =>
        rows.map((r) =>
          r.id === answered.id
            ? {
                ...r,
                citations: (r.citations as Row[]).map((c) => ({ ...c, text: 'tampered' })),
              }
            : r,
        ),
    })
    const job = await asNewOrg(zip, 'Review Tampered Citation')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as unknown as { orgId: string }).orgId
    const cells = (await reviewTablesOf(orgId)).cells
    expect(
      cells.filter((c) => c.state === 'unverified' && c.reason === UNCHECKED_CITATION),
    ).toHaveLength(1)
  })
})

describe('an imported review line', () => {
  const cell = (fields: Row): Row => ({
    id: crypto.randomUUID(),
    review_id: crypto.randomUUID(),
    row_id: crypto.randomUUID(),
    column_id: crypto.randomUUID(),
    row_position: 0,
    column_position: 0,
    state: 'answered',
    citations: [{ start: 0, end: 4, text: 'This' }],
    override: null,
    ...fields,
  })
  const apply = (row: Row, person: (id: unknown) => string | null = () => null) => {
    const out = { ...row }
    const rekeyed: [string, string][] = []
    const why = new ImportedReviews().apply('review_cells', row, out, person, (a, b) =>
      rekeyed.push([a, b]),
    )
    return { why, out, rekeyed }
  }

  it('comes back pending when it was running, under the id of its row and column', () => {
    const row = cell({ state: 'running' })
    const { why, out, rekeyed } = apply(row)
    expect(why).toBeNull()
    expect(out.state).toBe('pending')
    expect(out.id).toBe(reviewCellId(row.row_id as string, row.column_id as string))
    expect(rekeyed).toEqual([[row.id, out.id]])
  })

  it('names an override’s author only as the people columns are (nobody but a clone’s match)', () => {
    const override = { answer: null, note: 'n', by: 'archive-user', at: '2026-01-01T00:00:00Z' }
    expect(apply(cell({ override })).out.override).toMatchObject({ note: 'n', by: null })
    const matched = apply(cell({ override }), (id) => (id === 'archive-user' ? 'local-user' : null))
    expect(matched.out.override).toMatchObject({ by: 'local-user' })
    expect(apply(cell({ override: 'text' })).why).toMatch(/override/)
  })

  it('is unverified when answered without a citation, and an app review without its app a selection', () => {
    expect(apply(cell({ citations: [] })).out).toMatchObject({
      state: 'unverified',
      reason: UNCHECKED_CITATION,
    })
    const out = { id: crypto.randomUUID(), app_id: null, row_source: 'app' }
    new ImportedReviews().apply(
      'reviews',
      out,
      out,
      () => null,
      () => undefined,
    )
    expect(out.row_source).toBe('selection')
  })
})

describe('hostile review lines', () => {
  it('leaves out a row naming a document the archive does not hold (another firm’s), with its cells', async () => {
    await ready()
    const mallory = await signedInMember(t, 'Review Archive Other Firm')
    const theirs = await documentOf(mallory, 'Their secret', SAMPLE_CONTRACT)
    const zip = archiveWith({
      review_rows: (rows) =>
        rows.map((r) => (r.document_id === docs.second ? { ...r, document_id: theirs } : r)),
      review_cells: (rows) =>
        rows.map((r) => (r.document_id === docs.second ? { ...r, document_id: theirs } : r)),
    })
    const job = await asNewOrg(zip, 'Review Foreign Document')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as unknown as { orgId: string }).orgId
    const copy = await reviewTablesOf(orgId)
    expect(copy.rows).toHaveLength(2)
    expect(copy.cells).toHaveLength(3)
    const named = await rowsOf(
      sql`SELECT id FROM review_rows WHERE document_id = ${theirs}
          UNION ALL SELECT id FROM review_cells WHERE document_id = ${theirs}`,
    )
    expect(named).toEqual([])
    const [doc] = await t.database.db.select().from(documents).where(eq(documents.id, theirs))
    expect(doc!.orgId).toBe(mallory.orgId)
  })

  it('refuses a citation outside its document’s text', async () => {
    await ready()
    const zip = archiveWith({
      review_cells: (rows) =>
        rows.map((r, i) =>
          i === 0 ? { ...r, citations: [{ start: 0, end: 10_000_000, text: 'x' }] } : r,
        ),
    })
    await expectRefused(zip, 'Review Citation Outside', 'review_cells', /outside its document/)
  })

  it('refuses offsets and positions past PostgreSQL’s integer as a line, not a database error', async () => {
    await ready()
    await expectRefused(
      archiveWith({
        review_cells: (rows) =>
          rows.map((r, i) =>
            i === 0 ? { ...r, citations: [{ start: 0, end: 3_000_000_000, text: 'x' }] } : r,
          ),
      }),
      'Review Huge Offset',
      'review_cells',
      /0 ≤ start < end/,
    )
    await expectRefused(
      archiveWith({
        review_cells: (rows) => rows.map((r, i) => (i === 0 ? { ...r, row_position: 2 ** 31 } : r)),
      }),
      'Review Huge Position',
      'review_cells',
      /row_position/,
    )
  })

  it('checks a citation in JavaScript’s offsets: an emoji before it moves it by two, not one', async () => {
    await ready()
    const cells = tableOf(entries, 'review_cells')
    const answered = cells.filter((c) => c.state === 'answered')
    const ofFirst = answered.filter((c) => c.document_id === docs.first).length
    expect(ofFirst).toBeGreaterThan(0)
    const moved = (by: number) =>
      archiveWith({
        documents: (rows) =>
          rows.map((d) => (d.id === docs.first ? { ...d, content: `😀${String(d.content)}` } : d)),
        review_cells: (rows) =>
          rows.map((r) =>
            r.document_id === docs.first
              ? {
                  ...r,
                  citations: (r.citations as { start: number; end: number }[]).map((c) => ({
                    ...c,
                    start: c.start + by,
                    end: c.end + by,
                  })),
                }
              : r,
          ),
      })
    const states = async (zip: Uint8Array, name: string) => {
      const job = await asNewOrg(zip, name)
      expect(job.status, job.error ?? '').toBe('succeeded')
      const orgId = (job.result as unknown as { orgId: string }).orgId
      const imported = (await reviewTablesOf(orgId)).cells
      return {
        answered: imported.filter((c) => c.state === 'answered').length,
        unverified: imported.filter((c) => c.reason === UNCHECKED_CITATION).length,
      }
    }
    // Offsets as Lexdesk writes them (UTF-16): every answer stays one.
    expect(await states(moved(2), 'Review Emoji Sixteen')).toEqual({
      answered: answered.length,
      unverified: 0,
    })
    // Offsets in characters (an emoji one): each citation of that document is half an emoji off.
    expect(await states(moved(1), 'Review Emoji Characters')).toEqual({
      answered: answered.length - ofFirst,
      unverified: ofFirst,
    })
  })

  it('refuses a malformed citation and too many citations in a cell', async () => {
    await ready()
    const many = Array.from({ length: 21 }, () => ({ start: 0, end: 1, text: 'M' }))
    await expectRefused(
      archiveWith({
        review_cells: (rows) => rows.map((r, i) => (i === 0 ? { ...r, citations: many } : r)),
      }),
      'Review Many Citations',
      'review_cells',
      /more than 20 citations/,
    )
    await expectRefused(
      archiveWith({
        review_cells: (rows) =>
          rows.map((r, i) => (i === 0 ? { ...r, citations: [{ start: 5, end: 2, text: '' }] } : r)),
      }),
      'Review Reversed Citation',
      'review_cells',
      /0 ≤ start < end/,
    )
  })

  it('refuses a review of more columns than a review holds', async () => {
    await ready()
    const zip = archiveWith({
      review_columns: (rows) => [
        ...rows,
        ...Array.from({ length: 50 }, (_, i) => ({
          ...rows.find((r) => r.review_id === selectionReviewId)!,
          id: crypto.randomUUID(),
          position: 100 + i,
        })),
      ],
    })
    await expectRefused(zip, 'Review Too Wide', 'review_columns', /more than 50 columns/)
  })

  it('refuses a cell whose document is not its row’s, and an app’s review holding another document', async () => {
    await ready()
    await expectRefused(
      archiveWith({
        review_cells: (rows) =>
          rows.map((r) => (r.document_id === docs.first ? { ...r, document_id: docs.second } : r)),
      }),
      'Review Cell Elsewhere',
      'review_cells',
      /its document is not its row/,
    )
    await expectRefused(
      archiveWith({
        review_rows: (rows) =>
          rows.map((r) => (r.review_id === appReviewId ? { ...r, document_id: docs.first } : r)),
      }),
      'Review Outside Its App',
      'review_rows',
      /not of that app/,
    )
  })
})
