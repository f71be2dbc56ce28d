/**
 * Why a document cannot be analysed yet, in words for the person looking at it (issue 26): it
 * has no text, and its scanned pages are being read (OCR), or could not be, or were never read.
 * Null when it has text.
 */
import type { Job } from '../../hooks/jobs'
import type { DocumentDetail } from './api/types'

export function analyzeDisabledReason(
  document: Pick<DocumentDetail, 'content' | 'mimeType' | 'pageStarts'>,
  ocr: Pick<Job, 'status'> | null | undefined,
): string | null {
  if (document.content.trim() !== '') return null
  if (ocr?.status === 'queued' || ocr?.status === 'running')
    return 'Analyze is available once the scanned pages have been read (OCR in progress).'
  if (document.pageStarts)
    return 'No text was found on these pages, even by OCR, so there is nothing to analyze.'
  if (document.mimeType !== 'application/pdf') return 'This document has no text to analyze.'
  if (ocr?.status === 'failed')
    return 'The text of this scan could not be read (OCR failed): read it again, or upload a clearer scan.'
  if (ocr?.status === 'cancelled')
    return 'Reading this scan was cancelled: read its text (OCR) to analyze it.'
  return 'This scanned PDF has no text yet: read its text (OCR) to analyze it.'
}
