/**
 * Scanned PDFs through OCR (issue 26): the scans are made here, from lines of known words (a PDF
 * with a text layer rendered by pdftoppm and rebuilt from its page images, so no text layer
 * survives), never taken from a fixtures folder.
 */
import { readdir, readFile, readlink } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { Readable } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { paddedPdf, uploadForm } from '../../test/sample-files'
import { imageOnlyPdf, joinPdfs, textPdf, textPdfWithHiddenLine } from '../../test/image-only-pdf'
import { RISKY_SERVICES_AGREEMENT } from '../../test/test-contracts'
import { storedDocuments } from '../../test/document-uploads'
import type { AnalysisResult } from '../../ai/analyzer/types'
import type { BlobStore } from '../../blob/blob-store'

let t: TestApp
let alice: TestMember
let mallory: TestMember

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

/** Each read of a document's file: key, size and bytes of it the reader still held at its end. */
const documentReads: { key: string; size: number; heldAtEnd: number }[] = []

/**
 * The store, watching every read of a document's file: once the reader has taken its last chunk
 * and garbage is collected, how many of the chunks it was given are still alive (a reader
 * buffering the file holds all of them then; one writing it on, a few in flight). Only the
 * file's own chunks are weighed, so other work of the app at the time does not count.
 */
function watchingStore(blobs: BlobStore): BlobStore {
  async function* watched(stream: Readable, onEnd: (chunks: WeakRef<Buffer>[]) => void) {
    const chunks: WeakRef<Buffer>[] = []
    for await (const chunk of stream) {
      chunks.push(new WeakRef(chunk as Buffer))
      yield chunk as Buffer
    }
    onEnd(chunks)
  }
  return Object.assign(Object.create(blobs) as BlobStore, {
    getStream: async (key: string, range?: Parameters<BlobStore['getStream']>[1]) => {
      const opened = await blobs.getStream(key, range)
      if (!opened || !key.includes('/documents/')) return opened
      const record = (chunks: WeakRef<Buffer>[]) => {
        collectGarbage()
        const heldAtEnd = chunks.reduce((sum, chunk) => sum + (chunk.deref()?.length ?? 0), 0)
        documentReads.push({ key, size: opened.head.size, heldAtEnd })
      }
      return { head: opened.head, stream: Readable.from(watched(opened.stream, record)) }
    },
  })
}

beforeAll(async () => {
  t = await buildTestApp({ wrapBlobs: watchingStore })
  alice = await signedInMember(t, 'Alice Firm')
  mallory = await signedInMember(t, 'Mallory Firm')
})
afterAll(() => t.close())

const base = (m: TestMember) => `/api/v1/orgs/${m.orgId}/documents`

/** `text` broken into lines of at most `width` characters at spaces (a page's 14 pt lines). */
function wrap(text: string, width = 68): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(' ').filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line)
        line = word
      } else line = line ? `${line} ${word}` : word
    }
    lines.push(line)
  }
  return lines
}

async function upload(m: TestMember, bytes: Uint8Array, fileName = 'scan.pdf') {
  return t.app.inject({
    method: 'POST',
    url: base(m),
    headers: m.headers,
    payload: uploadForm(bytes, fileName),
  })
}

/** The OCR jobs of document `id`, newest first. */
async function ocrJobs(m: TestMember, id: string) {
  const res = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/jobs?subjectId=${id}&kind=ocr`,
    headers: m.headers,
  })
  expect(res.statusCode).toBe(200)
  return res.json().items as { id: string; status: string; progress: number; message: string }[]
}

/** The document as the API answers it. */
async function document(m: TestMember, id: string) {
  const res = await t.app.inject({ url: `${base(m)}/${id}`, headers: m.headers })
  expect(res.statusCode).toBe(200)
  return res.json() as {
    content: string
    textStatus: string
    textStatusMessage: string | null
    pageStarts: number[] | null
  }
}

/**
 * Waits for job `jobId` to end and returns it as the API answers it. OCR runs two programs per
 * page on a machine whose cores other work shares: up to two minutes, not finishedJob's 20 s.
 */
async function endedJob(m: TestMember, jobId: string) {
  let job: { status: string; result: unknown; errorCode: string | null } | undefined
  await expect
    .poll(
      async () => {
        const res = await t.app.inject({
          url: `/api/v1/orgs/${m.orgId}/jobs/${jobId}`,
          headers: m.headers,
        })
        job = res.json()
        return job?.status
      },
      { timeout: 120_000, interval: 100 },
    )
    .toMatch(/succeeded|failed|cancelled/)
  return job!
}

/**
 * Working folders of the OCR programs (pdftoppm, tesseract) this test process is running, read
 * from /proc: its children whose working folder is an OCR temporary folder (other processes on
 * the machine may run OCR too).
 */
async function ocrProcessFolders(): Promise<string[]> {
  const folders: string[] = []
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (parent !== process.pid) continue
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '')
    if (cwd.includes('lexdesk-ocr-')) folders.push(cwd)
  }
  return folders
}

describe('scanned PDFs (OCR)', () => {
  it(
    'recognises the words of a scan, page by page, and its analysis cites them',
    { timeout: 300_000 },
    async () => {
      const lines = wrap(RISKY_SERVICES_AGREEMENT)
      const scan = await imageOnlyPdf(await textPdf(lines, 20))
      const res = await upload(alice, scan)
      expect(res.statusCode).toBe(201)
      const id = res.json().id as string
      expect(res.json()).toMatchObject({ content: '', textStatus: 'empty' })

      const [job] = await ocrJobs(alice, id)
      expect(job).toBeDefined()
      expect(await endedJob(alice, job!.id)).toMatchObject({
        status: 'succeeded',
        result: { documentId: id, pages: 2 },
      })
      const recognised = await document(alice, id)
      expect(recognised.textStatus).toBe('ocr')
      expect(recognised.textStatusMessage).toMatch(/OCR/)
      const flat = recognised.content.replace(/\s+/g, ' ')
      for (const words of [
        'MASTER SERVICES AGREEMENT',
        'Northwind Analytics, Inc.',
        'governed by and construed in accordance with the laws of the State of New York',
        'indemnify, defend and hold harmless Provider',
      ])
        expect(flat).toContain(words)
      // Page 2 starts with the line that opened the second page of the scan.
      expect(recognised.pageStarts).toHaveLength(2)
      expect(recognised.pageStarts![0]).toBe(0)
      expect(recognised.content.slice(recognised.pageStarts![1]!)).toMatch(
        new RegExp(`^${lines[20]!.split(' ').slice(0, 3).join(' ')}`),
      )

      const started = await t.app.inject({
        method: 'POST',
        url: `${base(alice)}/${id}/analyses`,
        headers: alice.headers,
        payload: { kind: 'full' },
      })
      expect(started.statusCode).toBe(202)
      const analysisJob = await endedJob(alice, started.json().id)
      expect(analysisJob.status).toBe('succeeded')
      const list = await t.app.inject({
        url: `${base(alice)}/${id}/analyses`,
        headers: alice.headers,
      })
      const result = (list.json().items as { result: AnalysisResult }[])[0]!.result
      const law = result.keyTerms.governingLaw
      expect(law).not.toBeNull()
      expect(recognised.content.slice(law!.start, law!.end)).toMatch(/New York/)
      // Each clause quotes the recognised text where its words stand.
      const cited = new Map(
        result.clauses.map((c) => [
          c.category,
          recognised.content.slice(c.start, c.end).replace(/\s+/g, ' '),
        ]),
      )
      for (const clause of result.clauses) expect(cited.get(clause.category)).toBeTruthy()
      expect(cited.get('Governing Law')).toMatch(/governed by and construed/)
      expect(cited.get('Non-Compete')).toMatch(/shall not, directly or indirectly, engage/)
      expect(cited.get('Termination For Convenience')).toMatch(/terminate this Agreement/)
    },
  )

  it(
    'reads only the scanned page of a PDF mixing typed and scanned pages, merged in page order',
    { timeout: 300_000 },
    async () => {
      const lines = wrap(RISKY_SERVICES_AGREEMENT)
      const split = lines.findIndex((line) => line.startsWith('6. Indemnification'))
      // In page 1's text layer, white on white: a text holding it was not read by OCR.
      const hidden = 'Reference ZXQ-417 kept in the text layer'
      const mixed = await joinPdfs([
        await textPdfWithHiddenLine(lines.slice(0, split), hidden),
        await imageOnlyPdf(await textPdf(lines.slice(split))),
      ])
      const res = await upload(alice, mixed, 'typed-with-scan.pdf')
      expect(res.statusCode).toBe(201)
      const id = res.json().id as string
      expect(res.json()).toMatchObject({ content: '', textStatus: 'empty' })
      const [job] = await ocrJobs(alice, id)
      expect(await endedJob(alice, job!.id)).toMatchObject({
        status: 'succeeded',
        result: { documentId: id, pages: 2 },
      })

      const merged = await document(alice, id)
      expect(merged.textStatus).toBe('ocr')
      expect(merged.pageStarts).toHaveLength(2)
      const [, second] = merged.pageStarts as [number, number]
      const page1 = merged.content.slice(0, second).replace(/\s+/g, ' ')
      const page2 = merged.content.slice(second).replace(/\s+/g, ' ')
      expect(page1).toContain(hidden)
      expect(page1).toContain('Northwind Analytics, Inc.')
      expect(page1).not.toContain('indemnify')
      expect(page2).toMatch(/^6\. Indemnification/)
      expect(page2).toContain('indemnify, defend and hold harmless Provider')
      expect(page2).toContain('laws of the State of New York')

      const started = await t.app.inject({
        method: 'POST',
        url: `${base(alice)}/${id}/analyses`,
        headers: alice.headers,
        payload: { kind: 'full' },
      })
      expect((await endedJob(alice, started.json().id)).status).toBe('succeeded')
      const list = await t.app.inject({
        url: `${base(alice)}/${id}/analyses`,
        headers: alice.headers,
      })
      const result = (list.json().items as { result: AnalysisResult }[])[0]!.result
      const page = (offset: number) => (offset < second ? 1 : 2)
      const law = result.keyTerms.governingLaw!
      expect(page(law.start)).toBe(2)
      expect(merged.content.slice(law.start, law.end)).toMatch(/New York/)
      const clause = (category: string) => result.clauses.find((c) => c.category === category)!
      expect(page(clause('Termination For Convenience').start)).toBe(1)
      expect(page(clause('Governing Law').start)).toBe(2)
    },
  )

  it('never OCRs a typed PDF whose last page holds only a signature line', async () => {
    const lines = [...wrap(RISKY_SERVICES_AGREEMENT), 'Signed: ______']
    const res = await upload(alice, await textPdf(lines, lines.length - 1), 'signed.pdf')
    expect(res.statusCode).toBe(201)
    expect(res.json().textStatus).toBe('ok')
    expect(res.json().content).toMatch(/Signed: _+$/)
    expect(await ocrJobs(alice, res.json().id)).toEqual([])
  })

  it('never OCRs a PDF with a text layer', { timeout: 300_000 }, async () => {
    const res = await upload(alice, await textPdf(wrap(RISKY_SERVICES_AGREEMENT), 20), 'typed.pdf')
    expect(res.statusCode).toBe(201)
    expect(res.json().textStatus).toBe('ok')
    expect(res.json().content).toContain('MASTER SERVICES AGREEMENT')
    expect(await ocrJobs(alice, res.json().id)).toEqual([])
  })

  it(
    'cancelling the OCR kills its programs and removes its temporary folder',
    { timeout: 300_000 },
    async () => {
      const scan = await imageOnlyPdf(await textPdf(wrap(RISKY_SERVICES_AGREEMENT), 8))
      const res = await upload(alice, scan)
      const id = res.json().id as string
      const [job] = await ocrJobs(alice, id)
      let folders: string[] = []
      await expect
        .poll(
          async () => {
            folders = await ocrProcessFolders()
            return folders.length
          },
          { timeout: 20_000, interval: 20 },
        )
        .toBeGreaterThan(0)
      const cancel = await t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${alice.orgId}/jobs/${job!.id}/cancel`,
        headers: alice.headers,
      })
      expect(cancel.statusCode).toBe(200)
      expect((await endedJob(alice, job!.id)).status).toBe('cancelled')
      await expect.poll(async () => (await ocrProcessFolders()).length).toBe(0)
      for (const folder of folders) expect(existsSync(folder)).toBe(false)
      const after = await document(alice, id)
      expect(after).toMatchObject({ content: '', textStatus: 'empty' })
    },
  )

  it(
    'serves the page images of a recognised scan as safe attachments, to its organisation only',
    { timeout: 300_000 },
    async () => {
      const res = await upload(alice, await imageOnlyPdf(await textPdf(['Page one of a scan'])))
      const id = res.json().id as string
      const [job] = await ocrJobs(alice, id)
      await endedJob(alice, job!.id)
      const image = await t.app.inject({
        url: `${base(alice)}/${id}/pages/1`,
        headers: alice.headers,
      })
      expect(image.statusCode).toBe(200)
      expect(image.headers['content-type']).toBe('image/png')
      expect(image.headers['x-content-type-options']).toBe('nosniff')
      expect(image.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
      expect(image.headers['content-disposition']).toMatch(/^attachment; filename="page-1.png"/)
      expect([...image.rawPayload.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
      const past = await t.app.inject({
        url: `${base(alice)}/${id}/pages/2`,
        headers: alice.headers,
      })
      expect(past.statusCode).toBe(404)
      const other = await t.app.inject({
        url: `${base(mallory)}/${id}/pages/1`,
        headers: mallory.headers,
      })
      expect(other.statusCode).toBe(404)
    },
  )

  it(
    'reads a large scan for its OCR and its page image without holding the PDF in memory',
    { timeout: 300_000 },
    async () => {
      const padded = paddedPdf(
        await imageOnlyPdf(await textPdf(['Page one of a large scan'])),
        20 * 1024 * 1024,
      )
      const res = await upload(alice, padded, 'large-scan.pdf')
      expect(res.statusCode, res.body.slice(0, 300)).toBe(201)
      const id = res.json().id as string
      const [job] = await ocrJobs(alice, id)
      expect(await endedJob(alice, job!.id)).toMatchObject({ status: 'succeeded' })
      expect((await document(alice, id)).content).toContain('large scan')
      const image = await t.app.inject({
        url: `${base(alice)}/${id}/pages/1`,
        headers: alice.headers,
      })
      expect(image.statusCode).toBe(200)

      const reads = documentReads.filter((read) => read.key.includes(id))
      // The job's read and the page image's.
      expect(reads.length).toBeGreaterThanOrEqual(2)
      for (const read of reads) {
        expect(read.size).toBe(padded.length)
        // A few chunks in flight, not the file: under a tenth of it (2 MB).
        expect(read.heldAtEnd).toBeLessThan(padded.length / 10)
      }
    },
  )

  it(
    "reads another organisation's upload while one organisation's scan holds every slot of the pool",
    { timeout: 300_000 },
    async () => {
      // Alice's scan as its OCR job reads it: a page's program on each of the pool's two slots and
      // more pages queued behind them (fakes that end when the test says: a real page takes
      // seconds, and would end on its own).
      let open!: () => void
      const gate = new Promise<void>((resolve) => (open = resolve))
      let pagesStarted = 0
      const pages = Array.from({ length: 4 }, () =>
        t.pool.runOnSlot(
          async () => {
            pagesStarted += 1
            await gate
          },
          { orgId: alice.orgId },
        ),
      )
      try {
        await expect.poll(() => t.pool.stats()).toMatchObject({ running: 2, queued: 2 })
        const contract = await textPdf(wrap(RISKY_SERVICES_AGREEMENT), 20)
        let answered: Awaited<ReturnType<typeof upload>> | undefined
        void upload(mallory, contract, 'mallory-contract.pdf').then((res) => (answered = res))
        await expect.poll(() => answered?.statusCode, { timeout: 60_000 }).toBe(201)
        expect(answered!.json().content).toContain('MASTER SERVICES AGREEMENT')
        // Read on the spare thread: Alice's pages never gave up their slots, nor got a third.
        expect(pagesStarted).toBe(2)
      } finally {
        open()
        await Promise.all(pages)
      }
    },
  )

  it(
    'refuses a scan with a 503 naming the missing language pack, storing nothing',
    { timeout: 300_000 },
    async () => {
      const german = await buildTestApp({ ocrLanguages: 'eng+deu' })
      try {
        const member = await signedInMember(german)
        const before = await storedDocuments(german)
        const res = await german.app.inject({
          method: 'POST',
          url: base(member),
          headers: member.headers,
          payload: uploadForm(await imageOnlyPdf(await textPdf(['Vertrag'])), 'scan.pdf'),
        })
        expect(res.statusCode).toBe(503)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(res.json()).toMatchObject({ code: 'ocr_language_missing' })
        expect(res.json().detail).toContain('tesseract-ocr-deu')
        expect(await storedDocuments(german)).toEqual(before)
      } finally {
        await german.close()
      }
    },
  )
})
