/**
 * Deleting a voice recording (issue 7, decisions 0041 and 0148), for every path that removes one:
 * a person's delete (features/voice) and the retention run (features/retention). Features do not
 * import each other, so the one sequence lives here, beside the document writes it uses for the
 * transcript: the row (its segments by cascade), its transcript document (removeDocument), its
 * jobs stopped, its audit entry and event, in the caller's transaction; then, after the commit,
 * its files (removeRecordingFiles).
 */
import { eq } from 'drizzle-orm'
import { recordings } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'
import type { BlobStore } from '../blob/blob-store'
import { recordAudit } from '../audit/record-audit'
import { recordEvent } from '../events/record-event'
import { cancelSubjectJobs } from '../jobs/job-service'
import { removeDocument, removeDocumentFiles, type RemovedDocument } from './document-writes'

type RecordingRow = typeof recordings.$inferSelect

/** What removeRecording leaves to remove after the commit: the audio and the transcript's files. */
export interface RemovedRecording {
  fileKey: string
  transcript: RemovedDocument | undefined
}

/**
 * Deletes recording `id` inside the caller's tenant transaction `tx` (locked first; `authorize`
 * may refuse by throwing, seeing the row), with its transcript, jobs, audit entry
 * ('recording.delete') and event ('recording.deleted'). Returns what to remove after the commit
 * (removeRecordingFiles), or undefined when there is no such recording. A legal hold reaching
 * the recording or its transcript makes the database refuse (LH409, decision 0147).
 */
export async function removeRecording(
  tx: Tx,
  principal: Principal,
  id: string,
  options: { authorize?: (row: RecordingRow) => void } = {},
): Promise<RemovedRecording | undefined> {
  const [row] = await tx.select().from(recordings).where(eq(recordings.id, id)).for('update')
  if (!row) return undefined
  options.authorize?.(row)
  await tx.delete(recordings).where(eq(recordings.id, id))
  // Its transcript goes with it (its indexing stopped, audited), and its transcription stops.
  const transcript = row.documentId
    ? await removeDocument(tx, principal, row.documentId, { documentType: 'transcript' })
    : undefined
  await cancelSubjectJobs(tx, [id])
  await recordAudit(tx, principal, 'recording.delete', { type: 'recording', id })
  await recordEvent(
    tx,
    principal,
    'recording.deleted',
    { recordingId: id, title: row.title },
    row.appId,
  )
  return { fileKey: row.fileKey, transcript }
}

/** Removes the audio and transcript files of a recording removeRecording deleted. */
export async function removeRecordingFiles(
  blobs: BlobStore,
  removed: RemovedRecording,
): Promise<void> {
  await blobs.delete(removed.fileKey)
  if (removed.transcript) await removeDocumentFiles(blobs, removed.transcript)
}
