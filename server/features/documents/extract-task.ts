/**
 * WorkerPool task: text extraction of one upload (runs on a pool thread, see extract-text.ts for
 * the formats, limits and errors). The file is read here, from its private copy, so its bytes are
 * held by the thread doing the work, never by the request that received them.
 */
import { readFile } from 'node:fs/promises'
import { extractDocumentText, type ExtractedText, type ExtractionLimits } from './extract-text'

export interface ExtractTextInput {
  /** The upload's private copy (uploads/spool-upload.ts) or a stored file's (documents/with-blob-copy.ts). */
  path: string
  fileName: string
  limits: ExtractionLimits
}

export async function extractTextTask(input: ExtractTextInput): Promise<ExtractedText> {
  const bytes = new Uint8Array(await readFile(input.path))
  return extractDocumentText(bytes, input.fileName, input.limits)
}
