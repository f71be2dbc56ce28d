/**
 * Playbooks (issue 46, decision 0153): the organisation's standard positions, versioned (a draft
 * is edited until an admin approves it; an approved version is frozen, by this service and by
 * the `playbook_versions_frozen` trigger), imported and exported as JSON (PlaybookDocument, the
 * published JSON Schema), copied from the shipped starters, and checked against a document's
 * stored analysis (server/playbooks/check-playbook.ts; pure and fast, so a check answers at
 * once rather than through a job). Everything runs under the principal's RLS: another
 * organisation's playbook, version, check or document is a 404 like a missing one. Every write
 * is audited.
 */
import { and, count, desc, eq, max, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { analyses, documents, playbookChecks, playbooks, playbookVersions } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import { readListPage, type PageWindow } from '../../lists/list-kit'
import { recordAudit } from '../../audit/record-audit'
import { AnalysisResult } from '../../ai/analyzer/types'
import { checkPlaybook, type CheckResult } from '../../playbooks/check-playbook'
import { Positions, type PlaybookDocument, type Position } from '../../playbooks/positions'
import { starters, type StarterId } from './starters'
import { suggestedText } from '../../playbooks/suggested-text'
import { poolTask, type WorkerPool } from '../../workers/worker-pool'
import type { PlaybookRedlineInput } from './redline-task'

type PlaybookRow = typeof playbooks.$inferSelect
type VersionRow = typeof playbookVersions.$inferSelect
type CheckRow = typeof playbookChecks.$inferSelect

/** The API shape of a playbook (without its versions). */
function toPlaybook(row: PlaybookRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    currentVersion: row.currentVersion,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** The API shape of a version without its positions. */
function toVersion(row: VersionRow) {
  return {
    number: row.number,
    status: row.approvedAt ? ('approved' as const) : ('draft' as const),
    positionCount: Array.isArray(row.positions) ? row.positions.length : 0,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    approvedBy: row.approvedBy,
    approvedAt: row.approvedAt?.toISOString() ?? null,
  }
}

/** The API shape of a version with its positions (none if the stored JSON no longer parses). */
function toFullVersion(row: VersionRow) {
  const positions = Positions.safeParse(row.positions)
  return { ...toVersion(row), positions: positions.success ? positions.data : [] }
}

/** The API shape of a check without its results. */
function toCheck(row: CheckRow, versionNumber: number) {
  const results = row.results as CheckResult | null
  return {
    id: row.id,
    appId: row.appId,
    playbookId: row.playbookId,
    version: versionNumber,
    documentId: row.documentId,
    status: row.status as 'done' | 'failed',
    counts: results?.counts ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  }
}

/** The API shape of a check with its results per position. */
function toFullCheck(row: CheckRow, versionNumber: number) {
  const results = row.results as CheckResult | null
  return { ...toCheck(row, versionNumber), results: results?.results ?? [] }
}

async function findPlaybook(tx: Tx, id: string): Promise<PlaybookRow> {
  const [row] = await tx.select().from(playbooks).where(eq(playbooks.id, id)).limit(1)
  if (!row) throw notFound('Playbook')
  return row
}

async function findVersion(tx: Tx, playbookId: string, number: number): Promise<VersionRow> {
  const [row] = await tx
    .select()
    .from(playbookVersions)
    .where(and(eq(playbookVersions.playbookId, playbookId), eq(playbookVersions.number, number)))
    .limit(1)
  if (!row) throw notFound('Playbook version')
  return row
}

async function versionsOf(tx: Tx, playbookId: string): Promise<VersionRow[]> {
  return tx
    .select()
    .from(playbookVersions)
    .where(eq(playbookVersions.playbookId, playbookId))
    .orderBy(desc(playbookVersions.number))
}

/** A new playbook with a draft version 1 of `positions`, in `tx`; audited as `action`. */
async function insertPlaybook(
  tx: Tx,
  principal: Principal,
  input: { name: string; description: string; positions: Position[] },
  action: string,
  meta: Record<string, unknown> = {},
) {
  const [row] = await tx
    .insert(playbooks)
    .values({
      orgId: principal.orgId,
      name: input.name,
      description: input.description,
      createdBy: principal.userId,
    })
    .returning()
  if (!row) throw new Error('insert returned no row')
  const [version] = await tx
    .insert(playbookVersions)
    .values({
      orgId: principal.orgId,
      playbookId: row.id,
      number: 1,
      positions: input.positions,
      createdBy: principal.userId,
    })
    .returning()
  if (!version) throw new Error('insert returned no row')
  await recordAudit(
    tx,
    principal,
    action,
    { type: 'playbook', id: row.id },
    {
      name: input.name,
      positions: input.positions.length,
      ...meta,
    },
  )
  return { ...toPlaybook(row), versions: [toVersion(version)] }
}

/** Creates an empty playbook (draft version 1 without positions). Audited `playbook.create`. */
export async function createPlaybook(
  db: Db,
  principal: Principal,
  input: { name: string; description?: string },
) {
  return withTenant(db, principal, (tx) =>
    insertPlaybook(
      tx,
      principal,
      { name: input.name, description: input.description ?? '', positions: [] },
      'playbook.create',
    ),
  )
}

/**
 * Imports a playbook document (already validated by PlaybookDocument: the published JSON
 * Schema) as a new playbook whose draft version 1 holds its positions. Audited `playbook.import`.
 */
export async function importPlaybook(db: Db, principal: Principal, document: PlaybookDocument) {
  return withTenant(db, principal, (tx) =>
    insertPlaybook(tx, principal, document, 'playbook.import'),
  )
}

/** Copies shipped starter `starter` into the organisation (a draft to adapt and approve). */
export async function copyStarter(db: Db, principal: Principal, starter: StarterId) {
  const document = starters().get(starter)
  if (!document) throw notFound('Playbook')
  return withTenant(db, principal, (tx) =>
    insertPlaybook(tx, principal, document, 'playbook.copy_starter', { starter }),
  )
}

/** The shipped starters: id, name, description and how many positions each holds. */
export function listStarters() {
  return [...starters()].map(([id, document]) => ({
    id,
    name: document.name,
    description: document.description,
    positionCount: document.positions.length,
  }))
}

/** The organisation's playbooks, newest first. */
export async function listPlaybooks(db: Db, principal: Principal, query: PageWindow) {
  const { rows, total } = await readListPage(db, principal, query, (tx) => ({
    rows: tx.select().from(playbooks).orderBy(desc(playbooks.createdAt), desc(playbooks.id)),
    total: tx
      .select({ n: count() })
      .from(playbooks)
      .then((r) => r[0]?.n ?? 0),
  }))
  return { items: rows.map(toPlaybook), total }
}

/** Playbook `id` with its versions (newest first, without positions); 404 otherwise. */
export async function readPlaybook(db: Db, principal: Principal, id: string) {
  return withTenant(db, principal, async (tx) => {
    const row = await findPlaybook(tx, id)
    const versions = await versionsOf(tx, id)
    return { ...toPlaybook(row), versions: versions.map((v) => toVersion(v)) }
  })
}

/** Renames playbook `id` or changes its description. Audited `playbook.update`. */
export async function updatePlaybook(
  db: Db,
  principal: Principal,
  id: string,
  input: { name?: string; description?: string },
) {
  return withTenant(db, principal, async (tx) => {
    await findPlaybook(tx, id)
    const [row] = await tx
      .update(playbooks)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(playbooks.id, id))
      .returning()
    if (!row) throw notFound('Playbook')
    await recordAudit(tx, principal, 'playbook.update', { type: 'playbook', id }, input)
    const versions = await versionsOf(tx, id)
    return { ...toPlaybook(row), versions: versions.map((v) => toVersion(v)) }
  })
}

/** Deletes playbook `id` with its versions and checks (an admin's act: the route says so). */
export async function deletePlaybook(db: Db, principal: Principal, id: string) {
  await withTenant(db, principal, async (tx) => {
    const row = await findPlaybook(tx, id)
    await tx.delete(playbooks).where(eq(playbooks.id, id))
    await recordAudit(
      tx,
      principal,
      'playbook.delete',
      { type: 'playbook', id },
      {
        name: row.name,
      },
    )
  })
}

/** Version `number` of playbook `id` with its positions; 404 otherwise. */
export async function readVersion(db: Db, principal: Principal, id: string, number: number) {
  return withTenant(db, principal, async (tx) => {
    await findPlaybook(tx, id)
    return toFullVersion(await findVersion(tx, id, number))
  })
}

/**
 * A new draft version of playbook `id` holding `positions` (the next number). Audited
 * `playbook.version.create`.
 */
export async function createVersion(
  db: Db,
  principal: Principal,
  id: string,
  positions: Position[],
) {
  return withTenant(db, principal, async (tx) => {
    await findPlaybook(tx, id)
    const [last] = await tx
      .select({ n: max(playbookVersions.number) })
      .from(playbookVersions)
      .where(eq(playbookVersions.playbookId, id))
    const number = (last?.n ?? 0) + 1
    const [row] = await tx
      .insert(playbookVersions)
      .values({
        orgId: principal.orgId,
        playbookId: id,
        number,
        positions,
        createdBy: principal.userId,
      })
      .returning()
    if (!row) throw new Error('insert returned no row')
    await tx.update(playbooks).set({ updatedAt: new Date() }).where(eq(playbooks.id, id))
    await recordAudit(
      tx,
      principal,
      'playbook.version.create',
      { type: 'playbook', id },
      {
        version: number,
        positions: positions.length,
      },
    )
    return toFullVersion(row)
  })
}

const APPROVED = (number: number) =>
  new AppError(
    'playbook_version_approved',
    `Version ${number} is approved and cannot change; create a new version to edit it.`,
  )

/**
 * Replaces the positions of draft `number` of playbook `id`; 409 `playbook_version_approved`
 * once approved. Audited `playbook.version.update`.
 */
export async function updateVersion(
  db: Db,
  principal: Principal,
  id: string,
  number: number,
  positions: Position[],
) {
  return withTenant(db, principal, async (tx) => {
    await findPlaybook(tx, id)
    const version = await findVersion(tx, id, number)
    if (version.approvedAt) throw APPROVED(number)
    const [row] = await tx
      .update(playbookVersions)
      .set({ positions })
      .where(eq(playbookVersions.id, version.id))
      .returning()
    if (!row) throw notFound('Playbook version')
    await tx.update(playbooks).set({ updatedAt: new Date() }).where(eq(playbooks.id, id))
    await recordAudit(
      tx,
      principal,
      'playbook.version.update',
      { type: 'playbook', id },
      {
        version: number,
        positions: positions.length,
      },
    )
    return toFullVersion(row)
  })
}

/**
 * Approves draft `number` of playbook `id` (an admin's act: the route says so) and makes it the
 * playbook's current version; frozen from then on. 409 `playbook_version_approved` when it
 * already is. Audited `playbook.version.approve`.
 */
export async function approveVersion(db: Db, principal: Principal, id: string, number: number) {
  return withTenant(db, principal, async (tx) => {
    await findPlaybook(tx, id)
    const version = await findVersion(tx, id, number)
    if (version.approvedAt) throw APPROVED(number)
    const [row] = await tx
      .update(playbookVersions)
      .set({ approvedBy: principal.userId, approvedAt: new Date() })
      .where(eq(playbookVersions.id, version.id))
      .returning()
    if (!row) throw notFound('Playbook version')
    await tx
      .update(playbooks)
      .set({ currentVersion: number, updatedAt: new Date() })
      .where(eq(playbooks.id, id))
    await recordAudit(
      tx,
      principal,
      'playbook.version.approve',
      { type: 'playbook', id },
      {
        version: number,
      },
    )
    return toFullVersion(row)
  })
}

/**
 * Playbook `id` as a playbook document (the import's format): version `number`, else its
 * current (approved) version, else its latest draft. Not audited: a read.
 */
export async function exportPlaybook(
  db: Db,
  principal: Principal,
  id: string,
  number?: number,
): Promise<PlaybookDocument & { version: number; status: 'draft' | 'approved' }> {
  return withTenant(db, principal, async (tx) => {
    const playbook = await findPlaybook(tx, id)
    const wanted = number ?? playbook.currentVersion
    const version =
      wanted !== null && wanted !== undefined
        ? await findVersion(tx, id, wanted)
        : (await versionsOf(tx, id))[0]
    if (!version) throw notFound('Playbook version')
    const shaped = toFullVersion(version)
    return {
      $schema: 'https://lexdesk.invalid/schemas/playbook.json',
      format: 'lexdesk-playbook/1',
      name: playbook.name,
      description: playbook.description,
      positions: shaped.positions,
      version: shaped.number,
      status: shaped.status,
    }
  })
}

/**
 * Checks document `documentId` against playbook `id` (version `number`, else its current
 * approved one: 409 `playbook_not_approved` when none is) from the document's latest full
 * analysis (409 `playbook_check_needs_analysis` when it has none), and stores the check, whose
 * app is the document's. 404 when the playbook or the document is not the caller's. Audited
 * `playbook.check`. Resolves to the check with its results.
 */
export async function createCheck(
  db: Db,
  principal: Principal,
  id: string,
  input: { documentId: string; version?: number },
) {
  return withTenant(db, principal, async (tx) => {
    const playbook = await findPlaybook(tx, id)
    const number = input.version ?? playbook.currentVersion
    if (number === null || number === undefined)
      throw new AppError(
        'playbook_not_approved',
        'This playbook has no approved version yet: approve one, or name a draft version to check against.',
      )
    const version = await findVersion(tx, id, number)
    const [document] = await tx
      .select({ id: documents.id, appId: documents.appId, content: documents.content })
      .from(documents)
      .where(eq(documents.id, input.documentId))
      .limit(1)
    if (!document) throw notFound('Document')
    const [analysis] = await tx
      .select({ result: analyses.result })
      .from(analyses)
      .where(and(eq(analyses.documentId, document.id), eq(analyses.kind, 'full')))
      .orderBy(desc(analyses.createdAt), desc(analyses.id))
      .limit(1)
    const parsed = analysis ? AnalysisResult.safeParse(analysis.result) : null
    if (!parsed?.success)
      throw new AppError(
        'playbook_check_needs_analysis',
        'Analyse the document (a full analysis) before checking it against a playbook.',
      )
    const positions = Positions.parse(version.positions)
    const result = checkPlaybook(positions, { content: document.content, analysis: parsed.data })
    const [row] = await tx
      .insert(playbookChecks)
      .values({
        orgId: principal.orgId,
        appId: principal.appId ?? document.appId,
        documentId: document.id,
        playbookId: id,
        playbookVersionId: version.id,
        status: 'done',
        results: result,
        createdBy: principal.userId,
      })
      .returning()
    if (!row) throw new Error('insert returned no row')
    await recordAudit(
      tx,
      principal,
      'playbook.check',
      { type: 'playbook_check', id: row.id },
      {
        playbookId: id,
        version: number,
        documentId: document.id,
        counts: result.counts,
      },
    )
    return toFullCheck(row, number)
  })
}

/** The checks of playbook `id` (an app-bound credential: its app's), newest first; `documentId` filters. */
export async function listChecks(
  db: Db,
  principal: Principal,
  id: string,
  query: PageWindow & { documentId?: string },
) {
  const where: SQL | undefined = and(
    eq(playbookChecks.playbookId, id),
    query.documentId ? eq(playbookChecks.documentId, query.documentId) : undefined,
  )
  await withTenant(db, principal, (tx) => findPlaybook(tx, id))
  const { rows, total } = await readListPage(db, principal, query, (tx) => ({
    rows: tx
      .select({ check: playbookChecks, number: playbookVersions.number })
      .from(playbookChecks)
      .innerJoin(playbookVersions, eq(playbookVersions.id, playbookChecks.playbookVersionId))
      .where(where)
      .orderBy(desc(playbookChecks.createdAt), desc(playbookChecks.id)),
    total: tx
      .select({ n: count() })
      .from(playbookChecks)
      .where(where)
      .then((r) => r[0]?.n ?? 0),
  }))
  return { items: rows.map((r) => toCheck(r.check, r.number)), total }
}

/** Check `checkId` of playbook `id` with its results; 404 otherwise. */
export async function readCheck(db: Db, principal: Principal, id: string, checkId: string) {
  return withTenant(db, principal, async (tx) => {
    const [found] = await tx
      .select({ check: playbookChecks, number: playbookVersions.number })
      .from(playbookChecks)
      .innerJoin(playbookVersions, eq(playbookVersions.id, playbookChecks.playbookVersionId))
      .where(and(eq(playbookChecks.id, checkId), eq(playbookChecks.playbookId, id)))
      .limit(1)
    if (!found) throw notFound('Playbook check')
    return toFullCheck(found.check, found.number)
  })
}

/** Wall-clock limit of building and verifying a check's DOCX redline on its thread (ms). */
const REDLINE_TIMEOUT_MS = 60_000

const REDLINE = poolTask<PlaybookRedlineInput, Uint8Array>(
  new URL('./redline-task.ts', import.meta.url),
  'playbookRedlineTask',
)

/**
 * Check `checkId`'s suggested redlines as a Word document with tracked changes (author
 * "Lexdesk"): each cited passage of a position not compliant replaced by the preferred language,
 * each missing position's language inserted at the end, built and verified on a worker pool
 * thread (redline-task.ts). 409 `playbook_check_stale` when a cited passage no longer reads as it
 * did (the document changed since the check). 404 as readCheck.
 */
export async function checkRedlineDocx(
  deps: { db: Db; pool: WorkerPool },
  principal: Principal,
  id: string,
  checkId: string,
) {
  const { check, document } = await withTenant(deps.db, principal, async (tx) => {
    const [found] = await tx
      .select()
      .from(playbookChecks)
      .where(and(eq(playbookChecks.id, checkId), eq(playbookChecks.playbookId, id)))
      .limit(1)
    if (!found) throw notFound('Playbook check')
    const [doc] = await tx
      .select({ title: documents.title, content: documents.content })
      .from(documents)
      .where(eq(documents.id, found.documentId))
      .limit(1)
    if (!doc) throw notFound('Document')
    return { check: found, document: doc }
  })
  const results = (check.results as CheckResult | null)?.results ?? []
  const applied = suggestedText(
    document.content,
    results.flatMap((r) =>
      r.redline
        ? [
            {
              title: r.title,
              language: r.redline.language,
              replaces: r.redline.replaces,
              replacedText: r.citation?.text ?? null,
            },
          ]
        : [],
    ),
  )
  if (applied.stale)
    throw new AppError(
      'playbook_check_stale',
      'The document changed since it was checked: check it again to get its redline.',
    )
  const bytes = await deps.pool.run(
    REDLINE,
    { base: document.content, revised: applied.revised },
    { orgId: principal.orgId, timeoutMs: REDLINE_TIMEOUT_MS },
  )
  const stem =
    document.title
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^\p{L}\p{N}-]+/gu, ' ')
      .trim()
      .slice(0, 80) || 'document'
  return { bytes, fileName: `${stem} - playbook redline.docx` }
}
