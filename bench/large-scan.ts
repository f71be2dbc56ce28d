/**
 * The large-scan neighbour of noisy-neighbour.ts (issue 41): a firm uploads a long scanned PDF
 * (every page an image, no text layer: server/test/image-only-pdf.ts), which the server reads by
 * OCR as a background job, two programs per page on the worker pool's slots (decision 53).
 */
import type { ChildServer } from '../server/test/child-server'
import type { HttpMember } from '../server/test/http-member'
import { imageOnlyPdf, textPdf } from '../server/test/image-only-pdf'
import { uploadForm } from '../server/test/sample-files'

/** A scanned contract of `pages` pages at 200 dpi: 30 lines of clause text a page, as images. */
export async function scannedContract(pages: number): Promise<Uint8Array> {
  const lines = Array.from(
    { length: pages * 30 },
    (_, i) =>
      `${i + 1}. The Supplier shall deliver the goods described in Schedule ${(i % 7) + 1} on time.`,
  )
  return imageOnlyPdf(await textPdf(lines, 30), 200)
}

/** The scan's OCR job as it ended, and how long it took from the upload's answer (ms). */
export interface ScanOutcome {
  status: string
  ms: number
  progress: number
}

/**
 * Uploads `pdf` as `member`: resolves when the upload is answered, with `ended`, which resolves
 * once its OCR job has ended (polled every second). Throws when the upload is refused or no OCR
 * job was queued.
 */
export async function runLargeScan(
  server: ChildServer,
  member: HttpMember,
  pdf: Uint8Array,
): Promise<{ uploadedAt: number; ended: Promise<ScanOutcome> }> {
  const api = `${server.origin}/api/v1/orgs/${member.orgId}`
  const uploaded = await fetch(`${api}/documents`, {
    method: 'POST',
    headers: member.headers,
    body: uploadForm(pdf, 'scanned-contract.pdf', { title: 'Scanned contract' }),
  })
  if (uploaded.status !== 201)
    throw new Error(`scan upload answered ${uploaded.status}: ${await uploaded.text()}`)
  const uploadedAt = performance.now()
  const { id } = (await uploaded.json()) as { id: string }
  const jobs = await fetch(`${api}/jobs?subjectId=${id}&kind=ocr`, { headers: member.headers })
  const [job] = ((await jobs.json()) as { items: { id: string }[] }).items
  if (!job) throw new Error('the scan has no OCR job')
  const ended = (async (): Promise<ScanOutcome> => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const res = await fetch(`${api}/jobs/${job.id}`, { headers: member.headers }).catch(
        () => null,
      )
      if (!res?.ok) continue
      const state = (await res.json()) as { status: string; progress: number }
      if (['succeeded', 'failed', 'cancelled'].includes(state.status)) {
        return {
          status: state.status,
          ms: performance.now() - uploadedAt,
          progress: state.progress,
        }
      }
    }
  })()
  return { uploadedAt, ended }
}
