/**
 * Text extraction in a short-lived worker thread, so a long PDF (pdf.js parses a 400-page file in
 * about a second, with single blocks near 300 ms) never stalls other requests. Uploads are rare
 * next to the worker's start-up cost (~0.2 s), so there is no pool. Same contract and errors as
 * extractDocumentText.
 */
import { AppError } from '../../http/app-error'
import { startTsWorker } from '../../workers/start-ts-worker'
import type { ExtractedText } from './extract-text'

type WorkerReply =
  | { ok: true; extracted: ExtractedText }
  | { ok: false; error: { code: string; status: number; detail: string } | { message: string } }

const ENTRY = new URL('./extract-worker.ts', import.meta.url)

export function extractTextOffThread(bytes: Uint8Array, fileName: string): Promise<ExtractedText> {
  return new Promise((resolve, reject) => {
    const worker = startTsWorker(ENTRY, { bytes, fileName })
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      fn()
      void worker.terminate()
    }
    worker.once('message', (reply: WorkerReply) =>
      settle(() => {
        if (reply.ok) return resolve(reply.extracted)
        const e = reply.error
        reject('code' in e ? new AppError(e.code, e.status, e.detail) : new Error(e.message))
      }),
    )
    worker.once('error', (error) => settle(() => reject(error)))
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`Text extraction stopped unexpectedly (exit code ${code})`))),
    )
  })
}
