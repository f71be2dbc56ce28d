/**
 * The 'document-passages' job's contract: a document's passages written (and embedded when the
 * embedder fits the vector column); `superseded` when a newer job for the document took over.
 * Background work that yields to the user's own jobs. Queued with each document
 * (server/documents/document-writes.ts, and by SQL in migrations 0016/0019); run by
 * server/search/index-document.ts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const documentPassagesJobContract = defineJobContract({
  kind: 'document-passages',
  input: z.object({ documentId: z.string().uuid() }),
  result: z
    .object({
      chunks: z.number().int(),
      embedder: z.string().nullable(),
      superseded: z.boolean().optional(),
    })
    .meta({ id: 'DocumentPassagesJobResult' }),
  background: true,
})
