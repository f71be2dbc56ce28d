/**
 * Text extraction of an upload on the shared WorkerPool, under the limits of issue 5: a page
 * limit (413), a wall-clock timeout (422) and the pool's per-thread heap cap (a bomb kills the
 * thread, answered 422); at most the pool's thread count run at once, the rest wait in its queue.
 */
import { poolTask, type WorkerPool } from '../../workers/worker-pool'
import type { ExtractedText } from './extract-text'
import type { ExtractTextInput } from './extract-task'

const TOO_LARGE = {
  code: 'extraction_too_large',
  detail:
    'Reading the text of this file needed more memory than allowed, so it was stopped. It may be damaged or built to exhaust the server.',
} as const

/** The extraction task; a thread out of memory or dead is the file's doing (a bomb). */
const EXTRACT = poolTask<ExtractTextInput, ExtractedText>(
  new URL('./extract-task.ts', import.meta.url),
  'extractTextTask',
  {
    timeout: {
      code: 'extraction_timeout',
      detail: (timeoutMs) =>
        `Reading the text of this file took longer than ${timeoutMs / 1000} seconds (EXTRACTION_TIMEOUT_S), so it was stopped.`,
    },
    out_of_memory: TOO_LARGE,
    crashed: TOO_LARGE,
  },
)

/** Configured limits on extraction. */
export interface ExtractionSettings {
  maxPdfPages: number
  /** Wall-clock seconds an extraction may run on its thread (time waiting for one not counted). */
  timeoutSeconds: number
}

/**
 * Extracts the text of the file at `file.path` (a private copy, read by the pool thread) on
 * `pool`, in organisation `orgId`'s fair share of it (default: the work in progress's, a job's
 * organisation; WorkerPool `orgId`). Throws the extractor's AppErrors (400 corrupt, 413 too
 * many pages, 415 unsupported type), 422 `extraction_timeout` past the timeout, and 422
 * `extraction_too_large` when the thread runs out of memory or dies.
 */
export async function extractTextInPool(
  pool: WorkerPool,
  settings: ExtractionSettings,
  file: { path: string; fileName: string },
  options: { orgId?: string; signal?: AbortSignal } = {},
): Promise<ExtractedText> {
  return pool.run(
    EXTRACT,
    { path: file.path, fileName: file.fileName, limits: { maxPdfPages: settings.maxPdfPages } },
    { timeoutMs: settings.timeoutSeconds * 1000, signal: options.signal, orgId: options.orgId },
  )
}
