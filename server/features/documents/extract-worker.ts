/**
 * Worker-thread entry for extractTextOffThread: extracts the text of `workerData.data.bytes` and
 * posts `{ ok: true, extracted }` or `{ ok: false, error }` (an AppError's fields, or a message).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { AppError } from '../../http/app-error'
import { extractDocumentText } from './extract-text'

const { bytes, fileName } = (workerData as { data: { bytes: Uint8Array; fileName: string } }).data
try {
  parentPort?.postMessage({ ok: true, extracted: await extractDocumentText(bytes, fileName) })
} catch (error) {
  parentPort?.postMessage({
    ok: false,
    error:
      error instanceof AppError
        ? { code: error.code, status: error.status, detail: error.detail }
        : { message: error instanceof Error ? error.message : String(error) },
  })
}
