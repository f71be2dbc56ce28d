/**
 * Optical character recognition of a scanned PDF, page by page (decision 0053): Poppler's
 * `pdftoppm` renders a page to a greyscale PNG and `tesseract` reads it, two pages at a time
 * (decision 0062), so progress is per page and a cancel kills the programs running. The programs
 * get only what this module hands them: the path of the sniffed PDF (a private copy the caller
 * streamed from the store, so the server never holds the whole PDF in memory: issue 24), fixed
 * arguments, a private temporary folder for the page images (mode 0700, removed on success,
 * failure and cancel, and swept at start with every other temporary folder), a bare environment,
 * that folder as working directory, an address-space cap and the pool's wall-clock limit per
 * program (WORKER_TASK_TIMEOUT_S), each holding a slot of the shared worker pool. Neither program
 * follows references to other files (Poppler has no external streams, tesseract reads the one
 * image named).
 */
import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileTypeFromFile } from 'file-type'
import { AppError } from '../../errors/app-error'
import type { TaskFailures, WorkerPool } from '../../workers/worker-pool'
import { ProcessFailure, runProcess } from '../speech/run-process'
import { withTempDir } from '../../temp-files/temp-root'

/** How the OCR programs are run: the pool, languages and limits of the configuration. */
export interface OcrSettings {
  pool: WorkerPool
  /** Tesseract languages, codes joined by '+' (OCR_LANGUAGES). */
  languages: string
  /** Address-space cap of each program in MiB. */
  memoryMb: number
  /**
   * The organisation whose share of the pool the programs take (WorkerPool's `orgId`); default:
   * the work in progress's (the OCR job runs in its organisation's).
   */
  orgId?: string
}

/** The recognised text and the offset in it where each page's text starts (page 1 first). */
export interface RecognisedText {
  text: string
  pageStarts: number[]
}

/**
 * Pixels of a rendered page's long side: 2,200, a US Letter page at 200 dpi (A4 at 188). At
 * 3,300 (300 dpi, tesseract's usual advice) a CUAD contract page took 6.9 s of CPU against 3.8 s
 * here, with the same character error rate (0.1 % and 0.07 % on that page; decision 0053). Fixed
 * in pixels, not dpi, so a page that declares itself 200 inches long is rendered no larger: the
 * image stays under ~4 MB of grey.
 */
const OCR_LONG_SIDE_PX = 2200

/**
 * Pages read at the same time by one recognition, each program on its own slot of the shared
 * pool (which caps the server's programs whatever the jobs): 2, the cores of the machine this
 * runs on, for tesseract is held to one thread (OMP_THREAD_LIMIT) and read one page at a time
 * it left the second core idle: a page took 3.2-3.8 s of CPU, so one at a time could not meet
 * issue 26's 3 s per page even on an idle machine (decision 0062).
 */
const OCR_PAGES_AT_ONCE = 2

/** Between the texts of two pages, so that no sentence runs across a page break. */
export const PAGE_SEPARATOR = '\n\n'

/** The folder name prefix of one OCR run's temporary folder. */
const TEMP_PREFIX = 'lexdesk-ocr-'

export const OCR_INSTALL =
  'Reading scanned PDFs needs poppler-utils and tesseract-ocr, which are not installed on the server: install those Debian packages (node scripts/ensure-system.mjs app).'

/** What a program's slot failing becomes: past its limit, or out of the pool. */
function ocrFailures(what: string): TaskFailures {
  return {
    timeout: {
      code: 'ocr_timeout',
      detail: (ms) =>
        `${what} took longer than ${ms / 1000} seconds (WORKER_TASK_TIMEOUT_S), so it was stopped.`,
    },
  }
}

/**
 * The environment of the programs: a fixed PATH, the C locale, and one OpenMP thread, so that
 * tesseract uses the one core its pool slot stands for (its default is every core).
 */
export const OCR_PROGRAM_ENV: NodeJS.ProcessEnv = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  LC_ALL: 'C',
  OMP_THREAD_LIMIT: '1',
}

/**
 * Throws 415 `unsupported_type` unless the file at `pdf` starts as a PDF (file-type's magic
 * numbers, read from its first bytes alone); resolves to its absolute path, for a program whose
 * working folder is another.
 */
async function assertPdf(pdf: string): Promise<string> {
  const type = await fileTypeFromFile(pdf)
  if (type?.mime !== 'application/pdf')
    throw new AppError('unsupported_type', 'Only PDF files are read by OCR.')
  return path.resolve(pdf)
}

/** Runs one OCR program in `dir` under the settings' limits; its failure is the file's (422). */
async function runOcrProgram(
  settings: OcrSettings,
  program: string,
  args: string[],
  dir: string,
  what: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  try {
    return await runProcess(program, args, {
      pool: settings.pool,
      signal,
      install: OCR_INSTALL,
      cwd: dir,
      env: OCR_PROGRAM_ENV,
      memoryMb: settings.memoryMb,
      failures: ocrFailures(what),
      orgId: settings.orgId,
      // A scan's pages are read in the background: requests and probes come first (decision 0107).
      background: true,
    })
  } catch (error) {
    if (error instanceof ProcessFailure)
      throw new AppError(
        'ocr_failed',
        `${what} failed: the PDF may be damaged, or need more memory than allowed.`,
        {},
        error,
      )
    throw error
  }
}

/**
 * Renders page `page` (1-based) of the PDF at `pdf` (an absolute path) to `dir`/page-`page`.png;
 * `longSide` in pixels.
 */
async function renderPage(
  settings: OcrSettings,
  pdf: string,
  dir: string,
  page: number,
  longSide: number,
  signal?: AbortSignal,
): Promise<string> {
  const n = String(page)
  await runOcrProgram(
    settings,
    'pdftoppm',
    [
      '-f',
      n,
      '-l',
      n,
      '-scale-to',
      String(longSide),
      '-gray',
      '-png',
      '-singlefile',
      pdf,
      `page-${n}`,
    ],
    dir,
    `Rendering page ${page}`,
    signal,
  )
  return path.join(dir, `page-${n}.png`)
}

/**
 * Recognises the text of pages 1..`pages` of the PDF file at `pdf`. `onPage(done, pages)` is
 * called after each page. Resolves with the pages' texts (each as pageText makes it) joined by
 * PAGE_SEPARATOR and where each starts. Throws as recognisePages does.
 */
export async function recognisePdf(
  pdf: string,
  pages: number,
  settings: OcrSettings,
  options: { signal?: AbortSignal; onPage?: (done: number, pages: number) => void } = {},
): Promise<RecognisedText> {
  const all = Array.from({ length: pages }, (_, index) => index + 1)
  return joinPages(await recognisePages(pdf, all, settings, options))
}

/**
 * Recognises the text of pages `pageNumbers` (1-based) of the PDF file at `pdf`,
 * OCR_PAGES_AT_ONCE at a time. `onPage(done, total)` is called after each. Resolves with their
 * texts (each trimmed, lines normalised to \n: pageText), in the order of `pageNumbers`. Throws
 * 415 for a file that is not a PDF, 422 `ocr_failed` when a program fails on the file and
 * `ocr_timeout` past the limit, 503 when a program is not installed, and the abort reason when
 * `signal` aborts (the running program is killed).
 */
export async function recognisePages(
  pdf: string,
  pageNumbers: number[],
  settings: OcrSettings,
  options: { signal?: AbortSignal; onPage?: (done: number, total: number) => void } = {},
): Promise<string[]> {
  const input = await assertPdf(pdf)
  return withTempDir(async (dir) => {
    const texts: string[] = Array.from(pageNumbers, () => '')
    // One failing page stops the other one running, and the folder is removed only after both.
    const stop = new AbortController()
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal
    let next = 0
    let done = 0
    const reader = async () => {
      while (next < pageNumbers.length) {
        const index = next
        next += 1
        signal.throwIfAborted()
        const page = pageNumbers[index]!
        const image = await renderPage(settings, input, dir, page, OCR_LONG_SIDE_PX, signal)
        const read = await runOcrProgram(
          settings,
          'tesseract',
          [path.basename(image), 'stdout', '-l', settings.languages, '--psm', '3'],
          dir,
          `Reading page ${page}`,
          signal,
        )
        await rm(image, { force: true })
        texts[index] = pageText(read.toString('utf8'))
        done += 1
        options.onPage?.(done, pageNumbers.length)
      }
    }
    let failure: { cause: unknown } | null = null
    const readers = Array.from({ length: Math.min(OCR_PAGES_AT_ONCE, pageNumbers.length) }, () =>
      reader().catch((error: unknown) => {
        // The first failure is the cause; the other reader's is the stop it caused.
        failure ??= { cause: error }
        stop.abort(error)
      }),
    )
    await Promise.all(readers)
    if (failure) throw (failure as { cause: unknown }).cause
    return texts
  }, TEMP_PREFIX)
}

/** Pages' texts (page 1 first) as one text, PAGE_SEPARATOR between them, with where each starts. */
export function joinPages(texts: string[]): RecognisedText {
  let text = ''
  const pageStarts: number[] = []
  texts.forEach((page, index) => {
    if (index > 0) text += PAGE_SEPARATOR
    pageStarts.push(text.length)
    text += page
  })
  return { text, pageStarts }
}

/**
 * One page's recognised text: CR and form feeds (tesseract ends each page with one) removed, NUL
 * dropped, runs of three or more line breaks made two, trimmed.
 */
export function pageText(raw: string): string {
  return (
    raw
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- form feeds and NUL are what we remove
      .replace(/[\f\u0000]/g, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  )
}

/**
 * Renders page `page` (1-based) of the PDF file at `pdf` as a greyscale PNG whose long side is
 * `longSide` pixels, under the same isolation and limits as recognition. Throws as recognisePdf
 * does.
 */
export async function renderPdfPage(
  pdf: string,
  page: number,
  longSide: number,
  settings: OcrSettings,
  signal?: AbortSignal,
): Promise<Buffer> {
  const input = await assertPdf(pdf)
  return withTempDir(
    async (dir) => readFile(await renderPage(settings, input, dir, page, longSide, signal)),
    TEMP_PREFIX,
  )
}
