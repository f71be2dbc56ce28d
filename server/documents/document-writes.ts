/**
 * The one place documents are created and deleted (issue 21, decision 41), for every feature that
 * makes or removes one: the documents feature (uploads, pastes), voice (transcripts) and, later,
 * tenant import. Creating writes the row with its audit entry, its event and its indexing job
 * ('document-passages', queued here in the same transaction, never by a database trigger), after its
 * original file, and for a document of an app the fills of that app's app-wide reviews, which add
 * it as a row (decision 0137); deleting removes the row with its audit entry, its event and its jobs, then its
 * files. Features do not import each other, so this lives outside features/.
 */
import { and, eq } from 'drizzle-orm'
import { documents } from '../db/schema'
import { withTenant, type Principal, type Tx } from '../db/tenant'
import type { Db } from '../db/client'
import type { BlobStore } from '../blob/blob-store'
import { orgBlobFolder, orgBlobKey } from '../blob/blob-keys'
import { notFound } from '../errors/app-error'
import { assertCreatorOrAdmin } from '../db/assert-creator-or-admin'
import { recordAudit } from '../audit/record-audit'
import { recordEvent } from '../events/record-event'
import { isForeignKeyViolation } from '../db/constraint-violation'
import { cancelSubjectJobs } from '../jobs/job-service'
import { PASSAGE_JOB_KIND } from '../search/index-document'
import { queueAppReviewFills, type ReviewFillQueue } from './app-review-fills'

/**
 * What writing a document needs of the job runner (`services.jobs`): queueing its indexing job,
 * and the fills of its app's app-wide reviews (queueAppReviewFills), through the typed catalogue
 * (decision 39), which also wakes the runner.
 */
export type IndexingQueue = ReviewFillQueue & {
  enqueue(
    tx: Tx,
    principal: Principal,
    kind: typeof PASSAGE_JOB_KIND,
    input: { documentId: string },
    options: { subjectId?: string },
  ): Promise<unknown>
}

export interface DocumentDeps {
  db: Db
  blobs: BlobStore
  jobs: IndexingQueue
}

/** The blob folder of one document: its original upload lives under it. */
export function documentFolder(orgId: string, documentId: string): string {
  return orgBlobFolder(orgId, 'documents', documentId)
}

/** Where the original upload of document `documentId` is stored. */
export function documentFileKey(orgId: string, documentId: string): string {
  return orgBlobKey(orgId, 'documents', documentId, 'original')
}

/** A document's original file, already in the store at `key` (documentFileKey of its id). */
export interface DocumentFile {
  key: string
  fileName: string
  mimeType: string
  sizeBytes: number
}

export interface NewDocument {
  /** The row's id; required with `file`, whose key names it (documentFileKey). */
  id?: string
  /** The app to file it under (decision 8); undefined or null = organisation-wide. */
  appId?: string | null
  title: string
  content: string
  documentType: string
  file?: DocumentFile
  /** More work of the same transaction once the row is written (an upload queues its OCR). */
  afterInsert?: (tx: Tx, row: DocumentRow) => Promise<unknown>
}

export type DocumentRow = typeof documents.$inferSelect

/**
 * Writes a document row created by `principal` inside the caller's tenant transaction `tx`, with
 * its audit entry ('document.create'), its event (`event`, or none when the caller's own event
 * names the document, as 'recording.transcribed' does) and its indexing job, which yields to the
 * organisation's other work (background). `fileKey` is where its original file already is.
 * Throws the foreign-key error of an appId that is not the organisation's (createDocument turns
 * it into a 404).
 */
export async function insertDocument(
  jobs: IndexingQueue,
  tx: Tx,
  principal: Principal,
  input: Omit<NewDocument, 'afterInsert'> & {
    event: 'document.uploaded' | 'document.pasted' | null
  },
): Promise<DocumentRow> {
  const [row] = await tx
    .insert(documents)
    .values({
      id: input.id,
      orgId: principal.orgId,
      appId: input.appId ?? null,
      title: input.title,
      content: input.content,
      documentType: input.documentType,
      createdBy: principal.userId,
      fileKey: input.file?.key ?? null,
      fileName: input.file?.fileName ?? null,
      mimeType: input.file?.mimeType ?? null,
      sizeBytes: input.file?.sizeBytes ?? null,
      textStatus: input.content.length > 0 ? 'ok' : 'empty',
    })
    .returning()
  if (!row) throw new Error('insert returned no row')
  await recordAudit(
    tx,
    principal,
    'document.create',
    { type: 'document', id: row.id },
    { title: row.title },
  )
  if (input.event)
    await recordEvent(
      tx,
      principal,
      input.event,
      { documentId: row.id, title: row.title },
      row.appId,
    )
  await jobs.enqueue(tx, principal, PASSAGE_JOB_KIND, { documentId: row.id }, { subjectId: row.id })
  if (row.appId) await queueAppReviewFills(jobs, tx, principal, row.appId)
  return row
}

/**
 * Stores a new document as insertDocument does, in a transaction of its own. Its original file,
 * if any, is already in the store (an upload streams there first, uploads/spool-upload.ts): a crash
 * before the row leaves a file without a row, which removeOrphanFiles (documentFiles) removes at
 * the next start; never a row without its file. If the row cannot be written the document's
 * folder is removed, so a failure leaves neither. Throws a 404 problem (`app_not_found`) when
 * `input.appId` is not one of the organisation's apps.
 */
export async function createDocument(
  deps: DocumentDeps,
  principal: Principal,
  input: NewDocument,
): Promise<DocumentRow> {
  const { afterInsert, ...fields } = input
  const id = input.id ?? crypto.randomUUID()
  if (fields.file && fields.file.key !== documentFileKey(principal.orgId, id))
    throw new Error('A document file must be stored under its documentFileKey')
  try {
    return await withTenant(deps.db, principal, async (tx) => {
      const row = await insertDocument(deps.jobs, tx, principal, {
        ...fields,
        id,
        event: fields.file ? 'document.uploaded' : 'document.pasted',
      })
      await afterInsert?.(tx, row)
      return row
    })
  } catch (error) {
    if (fields.file) await deps.blobs.deletePrefix(documentFolder(principal.orgId, id))
    // The composite (org_id, app_id) reference admits only the organisation's own apps.
    if (isForeignKeyViolation(error, 'documents_app_fk')) throw notFound('App')
    throw error
  }
}

/** What removeDocument reads of a document before deleting it (never its text). */
export type RemovedDocument = Pick<
  DocumentRow,
  'id' | 'orgId' | 'appId' | 'title' | 'createdBy' | 'fileKey'
>

/**
 * Deletes document `id` inside the caller's tenant transaction `tx` (its analyses by cascade),
 * stops its jobs, and writes its audit entry ('document.delete') and event ('document.deleted').
 * `documentType`, when given, limits it to documents of that type (a recording deletes only a
 * transcript). Returns the deleted row, whose files the caller removes after the commit
 * (removeDocumentFiles), or undefined when there is no such document.
 */
export async function removeDocument(
  tx: Tx,
  principal: Principal,
  id: string,
  options: { documentType?: string; authorize?: (row: RemovedDocument) => void } = {},
): Promise<RemovedDocument | undefined> {
  const [row] = await tx
    .select({
      id: documents.id,
      orgId: documents.orgId,
      appId: documents.appId,
      title: documents.title,
      createdBy: documents.createdBy,
      fileKey: documents.fileKey,
    })
    .from(documents)
    .where(
      and(
        eq(documents.id, id),
        options.documentType ? eq(documents.documentType, options.documentType) : undefined,
      ),
    )
    .for('update')
  if (!row) return undefined
  options.authorize?.(row)
  await tx.delete(documents).where(eq(documents.id, id))
  await cancelSubjectJobs(tx, [id])
  await recordAudit(tx, principal, 'document.delete', { type: 'document', id })
  await recordEvent(
    tx,
    principal,
    'document.deleted',
    { documentId: id, title: row.title },
    row.appId,
  )
  return row
}

/** Removes the blob folder of a document deleted by removeDocument (none for pasted text). */
export async function removeDocumentFiles(blobs: BlobStore, row: RemovedDocument): Promise<void> {
  if (row.fileKey) await blobs.deletePrefix(documentFolder(row.orgId, row.id))
}

/** The refusal of a member's write to a document someone else added (docs/authorization.md). */
export function assertMayChangeDocument(
  principal: Principal,
  createdBy: string | null,
  verb: 'delete' | 'rename' | 'change',
): void {
  assertCreatorOrAdmin(principal, createdBy, {
    code: 'not_document_creator',
    detail: `Members can ${verb} only documents they added; ask an admin to ${verb} this one.`,
  })
}

/**
 * Deletes a document, its analyses (cascade), its jobs and its blob folder. Members delete only
 * the documents they created; admins and owners delete any (docs/authorization.md). Throws a 404
 * problem if the document is not the org's, a 403 problem (`not_document_creator`) if a member
 * asks for someone else's.
 */
export async function deleteDocument(
  deps: DocumentDeps,
  principal: Principal,
  id: string,
): Promise<void> {
  const row = await withTenant(deps.db, principal, (tx) =>
    removeDocument(tx, principal, id, {
      authorize: (found) => assertMayChangeDocument(principal, found.createdBy, 'delete'),
    }),
  )
  if (!row) throw notFound('Document')
  await removeDocumentFiles(deps.blobs, row)
}

/**
 * Deletes the organisation's documents among `ids` as deleteDocument does each one, all in one
 * transaction: a 403 problem (`not_document_creator`) for any of them (a member's selection
 * holding someone else's document) deletes none. Ids of no document, or of another
 * organisation's (hidden by RLS), are skipped. Returns how many were deleted; their files are
 * removed after the commit.
 */
export async function deleteDocuments(
  deps: DocumentDeps,
  principal: Principal,
  ids: readonly string[],
): Promise<number> {
  const removed = await withTenant(deps.db, principal, async (tx) => {
    const rows: RemovedDocument[] = []
    // Sorted, so two overlapping bulk deletes lock their rows in one order and never deadlock.
    for (const id of [...new Set(ids)].sort()) {
      const row = await removeDocument(tx, principal, id, {
        authorize: (found) => assertMayChangeDocument(principal, found.createdBy, 'delete'),
      })
      if (row) rows.push(row)
    }
    return rows
  })
  for (const row of removed) await removeDocumentFiles(deps.blobs, row)
  return removed.length
}
