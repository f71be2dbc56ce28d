/**
 * OCR quality and speed on PDFs that have a text layer (issue 26, decision 0053):
 *   npm run eval:ocr -- DIR [--limit N] [--labels CSV --contracts TXT_DIR]
 * For each PDF of DIR (sorted by name; the first N with --limit): its text layer is read as an
 * upload reads it (the reference), every page is rendered at 200 dpi and rebuilt into an
 * image-only PDF (what a scanner makes), and that scan goes through the server's OCR path (the
 * upload's extraction finds no text, recognisePdf reads the pages). Printed: the character error
 * rate of the recognised text against the text layer, page by page (CER, white space collapsed),
 * and the clause-presence F1 (the categories the analyzer detects: CUAD's and Governing Law, micro-averaged) of the local analysis of each
 * text against the CUAD labels of the contract (by default the fixtures' development labels;
 * a PDF without a label row is scored against the text layer's own analysis instead), and OCR
 * seconds per page. Ends with one JSON line:
 *   {"documents":…,"cer":…,"clause_f1_text":…,"clause_f1_ocr":…,"seconds_per_page":…}
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { extractText, getDocumentProxy } from 'unpdf'
import { loadConfig } from '../server/config'
import { analyzeLocal } from '../server/ai/analyzer/local/analyze-local'
import { DETECTED_CATEGORIES } from '../server/ai/analyzer/shared/cuad-taxonomy'
import { PAGE_SEPARATOR, recognisePdf } from '../server/ai/ocr/recognise-pdf'
import { extractDocumentText } from '../server/features/documents/extract-text'
import { imageOnlyPdf } from '../server/test/image-only-pdf'
import { WorkerPool } from '../server/workers/worker-pool'
import { withTempDir } from '../server/temp-files/temp-root'
import { characterErrors } from './character-error-rate'
import { fixturesDir, loadCuad, matchKey, parseArgs } from './cuad-dataset'

const USAGE =
  'usage: npm run eval:ocr -- DIR [--limit N] [--labels CSV --contracts TXT_DIR] (DIR holds PDFs with a text layer)'

/** The resolution pages are scanned at (issue 26). */
const SCAN_DPI = 200

const argv = process.argv.slice(2)
const dir = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'))
if (!dir || !existsSync(dir)) fail(`folder not found: ${dir ?? '(none)'}\n${USAGE}`)
const args = parseArgs(argv)
const limit = args.has('limit') ? Number(args.get('limit')) : Infinity
const files = readdirSync(dir)
  .filter((name) => name.toLowerCase().endsWith('.pdf'))
  .sort()
  .slice(0, limit)
if (files.length === 0) fail(`no PDF in ${dir}\n${USAGE}`)

const fixtures = fixturesDir()
const labelsPath = args.get('labels') ?? join(fixtures, 'contracts/cuad-dev-labels.csv')
const contractsDir = args.get('contracts') ?? join(fixtures, 'contracts/cuad-txt')
const labels = new Map(
  existsSync(labelsPath) && existsSync(contractsDir)
    ? loadCuad(contractsDir, labelsPath).contracts.map((c) => [
        matchKey(c.name.replace(/\.txt$/i, '')),
        new Set([...c.clauses].filter(([, quotes]) => quotes.length > 0).map(([name]) => name)),
      ])
    : [],
)

const config = loadConfig()
// The server's pool (WORKER_THREADS, default one per core), so pages are read as the server reads them.
const pool = new WorkerPool(config.workers)
const settings = {
  pool,
  languages: config.ocrLanguages,
  memoryMb: 1024,
}

interface Counts {
  tp: number
  fp: number
  fn: number
}
const textCounts: Counts = { tp: 0, fp: 0, fn: 0 }
const ocrCounts: Counts = { tp: 0, fp: 0, fn: 0 }
let errors = 0
let characters = 0
let ocrSeconds = 0
let cpuSeconds = 0
let pagesRead = 0
let documents = 0

console.log(
  `${'document'.padEnd(48)} ${'pages'.padStart(5)} ${'CER'.padStart(6)} s/page  clauses text/ocr/truth`,
)
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(join(dir, file)))
  const layer = await extractDocumentText(bytes, file, config.extraction)
  if (layer.scannedPages.length > 0) {
    console.log(`${file.slice(0, 48).padEnd(48)} skipped: scanned pages, no text layer to compare`)
    continue
  }
  const referencePages = await pageTexts(bytes)
  const scan = await imageOnlyPdf(bytes, SCAN_DPI)
  const scanned = await extractDocumentText(scan, file, config.extraction)
  if (scanned.scannedPages.length !== scanned.pages)
    fail(`${file}: the rebuilt scan still has a text layer`)
  const started = performance.now()
  const cpuBefore = childCpuSeconds()
  // OCR reads the PDF by path, as the server's job reads its copy of the stored file.
  const recognised = await withTempDir(async (folder) => {
    const file = join(folder, 'scan.pdf')
    await writeFile(file, scan, { mode: 0o600 })
    return recognisePdf(file, scanned.pages!, settings)
  }, 'lexdesk-eval-ocr-')
  const seconds = (performance.now() - started) / 1000
  cpuSeconds += childCpuSeconds() - cpuBefore
  const ocrPages = recognised.pageStarts.map((start, i) =>
    recognised.text.slice(
      start,
      (recognised.pageStarts[i + 1] ?? recognised.text.length + PAGE_SEPARATOR.length) -
        PAGE_SEPARATOR.length,
    ),
  )
  let docErrors = 0
  let docCharacters = 0
  referencePages.forEach((reference, i) => {
    const counted = characterErrors(reference, ocrPages[i] ?? '')
    docErrors += counted.errors
    docCharacters += counted.characters
  })
  const fromText = clauseSet(layer.text)
  const fromOcr = clauseSet(recognised.text)
  const truth = labels.get(matchKey(basename(file, '.pdf'))) ?? fromText
  count(textCounts, fromText, truth)
  count(ocrCounts, fromOcr, truth)
  errors += docErrors
  characters += docCharacters
  ocrSeconds += seconds
  pagesRead += referencePages.length
  documents += 1
  console.log(
    `${file.slice(0, 48).padEnd(48)} ${String(referencePages.length).padStart(5)} ${(docErrors / Math.max(1, docCharacters)).toFixed(4).padStart(6)} ${(seconds / referencePages.length).toFixed(2).padStart(6)}  ${fromText.size}/${fromOcr.size}/${truth.size}`,
  )
}
await pool.close()

// Wall time counts the wait for a core on a shared machine; CPU time is the programs' own work.
console.log(
  `OCR CPU time (pdftoppm + tesseract, user + system): ${(cpuSeconds / Math.max(1, pagesRead)).toFixed(2)} s per page`,
)

const round = (value: number) => Math.round(value * 10_000) / 10_000
console.log(
  JSON.stringify({
    documents,
    cer: round(errors / Math.max(1, characters)),
    clause_f1_text: round(f1(textCounts)),
    clause_f1_ocr: round(f1(ocrCounts)),
    seconds_per_page: round(ocrSeconds / Math.max(1, pagesRead)),
  }),
)

/**
 * User and system CPU seconds of this process's ended child processes (the OCR programs), from
 * Linux's /proc/self/stat (fields cutime and cstime, in clock ticks of 1/100 s); 0 elsewhere.
 */
function childCpuSeconds(): number {
  const stat = existsSync('/proc/self/stat') ? readFileSync('/proc/self/stat', 'utf8') : ''
  // Fields after the command name (which may hold spaces) start at field 3, the state.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) / 100
}

/** The text layer of each page, as the upload's extractor (unpdf) reads it. */
async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  try {
    return (await extractText(pdf, { mergePages: false })).text
  } finally {
    await pdf.destroy()
  }
}

/** The CUAD categories the local analysis finds present in `text`. */
function clauseSet(text: string): Set<string> {
  const found = new Set(analyzeLocal(text, 'full').clauses.map((clause) => clause.category))
  return new Set(DETECTED_CATEGORIES.filter((category) => found.has(category)))
}

/** Adds presence hits, false alarms and misses of `predicted` against `truth` to `counts`. */
function count(counts: Counts, predicted: Set<string>, truth: Set<string>): void {
  for (const category of DETECTED_CATEGORIES) {
    const p = predicted.has(category)
    const t = truth.has(category)
    if (p && t) counts.tp += 1
    else if (p) counts.fp += 1
    else if (t) counts.fn += 1
  }
}

/** F1 of presence counts; nothing to find and nothing found is perfect. */
function f1({ tp, fp, fn }: Counts): number {
  if (tp + fp + fn === 0) return 1
  return (2 * tp) / (2 * tp + fp + fn)
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`)
  process.exit(1)
}
