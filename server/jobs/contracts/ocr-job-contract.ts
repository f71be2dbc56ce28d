/**
 * The 'ocr' job's contract: the scanned pages of a PDF document read by OCR into its text; its
 * result counts pages and characters. Two attempts: a scan of many pages takes minutes, and a
 * crash mid-way starts it again once. Run by features/documents/ocr-job.ts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const ocrJobContract = defineJobContract({
  kind: 'ocr',
  input: z.object({
    documentId: z.string().uuid(),
    /** Pages of the PDF, as its extraction counted them (at most MAX_PDF_PAGES). */
    pages: z.number().int().min(1),
    /**
     * The scanned pages to read (1-based, ascending; scanned-pages.ts); the others keep their
     * text layer. Absent (jobs queued before decision 0062) = every page.
     */
    ocrPages: z.array(z.number().int().min(1)).min(1).optional(),
  }),
  result: z
    .object({
      documentId: z.string().uuid(),
      pages: z.number().int(),
      characters: z.number().int().describe('Length of the recognised text'),
    })
    .meta({ id: 'OcrJobResult' }),
  maxAttempts: 2,
})
