/**
 * WorkerPool task: text extraction of one upload (runs on a pool thread, see extract-text.ts for
 * the formats, limits and errors).
 */
import { extractDocumentText, type ExtractedText, type ExtractionLimits } from './extract-text'

export interface ExtractTextInput {
  bytes: Uint8Array
  fileName: string
  limits: ExtractionLimits
}

export function extractTextTask(input: ExtractTextInput): Promise<ExtractedText> {
  return extractDocumentText(input.bytes, input.fileName, input.limits)
}
