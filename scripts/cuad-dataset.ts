/**
 * Loads a CUAD-format evaluation set: a folder of contract `.txt` files plus a labels CSV in the
 * layout of CUAD's master_clauses.csv (CUAD v1, The Atticus Project, Hendrycks et al. 2021,
 * CC BY 4.0). Used by scripts/eval-cuad.ts and scripts/train-clauses.ts; never by the server.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import type { QuotedSpan } from '../server/ai/analyzer/types'

/** One labelled contract. `clauses` maps a CUAD category to the clause texts lawyers quoted. */
export interface CuadContract {
  name: string
  content: string
  clauses: Map<string, string[]>
  governingLawAnswer: string
  /** Normalised answers by column name without its "-Answer" suffix ("Parties", "Renewal Term"). */
  answers: Map<string, string>
}

/** Parsed `--flag value` pairs; bare flags map to 'true'. */
export function parseArgs(argv: readonly string[]): Map<string, string> {
  const args = new Map<string, string>()
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? ''
    if (!arg.startsWith('--')) continue
    const next = argv[i + 1]
    if (next !== undefined && !next.startsWith('--')) {
      args.set(arg.slice(2), next)
      i += 1
    } else {
      args.set(arg.slice(2), 'true')
    }
  }
  return args
}

/**
 * The evaluation fixtures folder: `$LEXDESK_FIXTURES`, else `../shared/fixtures` next to the
 * repository. It is not part of the repository; callers say so when it is absent.
 */
export function fixturesDir(): string {
  return resolve(process.env.LEXDESK_FIXTURES ?? '../shared/fixtures')
}

const NO_FIXTURES =
  'the fixtures live outside the repository: pass the paths or set LEXDESK_FIXTURES'

/**
 * Reads `--contracts DIR` and `--labels CSV` from argv (defaults: the CUAD development set under
 * `$LEXDESK_FIXTURES`, else `../shared/fixtures`: `contracts/cuad-txt` and
 * `contracts/cuad-dev-labels.csv`) and loads the contracts that have labels. Exits the process
 * with status 1 and a message on stderr when either is absent, because the fixtures live outside
 * the repository and a clone may not have them.
 */
export function loadCuadFromArgs(args: Map<string, string>, usage: string): CuadContract[] {
  const given = (name: string) => {
    const value = args.get(name)
    return value && value !== 'true' ? value : undefined
  }
  const fixtures = fixturesDir()
  const dir = given('contracts') ?? join(fixtures, 'contracts/cuad-txt')
  const labels = given('labels') ?? join(fixtures, 'contracts/cuad-dev-labels.csv')
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    fail(`contracts folder not found: ${dir} (${NO_FIXTURES}).\n${usage}`)
  if (!existsSync(labels)) fail(`labels CSV not found: ${labels} (${NO_FIXTURES}).\n${usage}`)
  const { contracts, unmatched } = loadCuad(dir, labels)
  if (contracts.length === 0) fail(`no contract in ${dir} matches a row of ${labels}`)
  process.stderr.write(
    `label rows without a text file: ${unmatched.length}` +
      (unmatched.length > 0 ? ` (${unmatched.join(', ')})` : '') +
      '\n',
  )
  return contracts
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`)
  process.exit(1)
}

/** The labelled contracts of a CUAD set, and the `Filename` of each label row no text file matched. */
export interface CuadSet {
  contracts: CuadContract[]
  unmatched: string[]
}

/**
 * Pairs each CSV row with its `.txt` file by name (labelFileKey). Rows without a text file are
 * listed in `unmatched`, never silently lost. Contracts come back sorted by name, so runs are
 * reproducible.
 */
export function loadCuad(dir: string, labelsPath: string): CuadSet {
  const files = new Map<string, string>()
  for (const file of readdirSync(dir)) {
    if (file.toLowerCase().endsWith('.txt')) files.set(matchKey(file.replace(/\.txt$/i, '')), file)
  }
  const rows = parse(readFileSync(labelsPath, 'utf8'), {
    columns: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Record<string, string>[]
  const contracts: CuadContract[] = []
  const unmatched: string[] = []
  for (const row of rows) {
    const filename = row['Filename'] ?? ''
    const file = files.get(labelFileKey(filename))
    if (!file) {
      unmatched.push(filename)
      continue
    }
    const clauses = new Map<string, string[]>()
    const answers = new Map<string, string>()
    for (const [column, value] of Object.entries(row)) {
      if (column === 'Filename') continue
      const answerOf = /^(.*?)-\s*Answer$/.exec(column)
      if (answerOf) answers.set((answerOf[1] ?? '').trim(), value.trim())
      else clauses.set(column.trim(), parsePythonList(value))
    }
    contracts.push({
      name: file,
      content: readFileSync(join(dir, file), 'utf8'),
      clauses,
      governingLawAnswer: (row['Governing Law-Answer'] ?? '').trim(),
      answers,
    })
  }
  return { contracts: contracts.sort((a, b) => a.name.localeCompare(b.name)), unmatched }
}

/**
 * The key a label row's `Filename` is matched by: its name without a `.pdf` extension, even one
 * followed by stray quotes or spaces (a held-out label ends in `.pdf'`), keeping letters and digits
 * only, lower-cased (the fixtures README's rule: a few spellings differ in punctuation). A text
 * file is keyed the same way without its `.txt`.
 */
export function labelFileKey(filename: string): string {
  return matchKey(filename.replace(/\.pdf[^a-z0-9]*$/i, ''))
}

/** The name of a contract as labels and files are paired: letters and digits, lower-cased. */
export function matchKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '')
}

/**
 * Reads CUAD's clause cells, Python list literals such as `['a', "b's"]`, into strings. An empty
 * cell or `[]` gives `[]`; a cell that is not a list is taken as one clause text.
 */
export function parsePythonList(cell: string): string[] {
  const trimmed = cell.trim()
  if (trimmed === '' || trimmed === '[]') return []
  if (!trimmed.startsWith('[')) return [trimmed]
  const items: string[] = []
  let i = 1
  while (i < trimmed.length) {
    const quote = trimmed[i]
    if (quote !== "'" && quote !== '"') {
      i += 1
      continue
    }
    let value = ''
    i += 1
    while (i < trimmed.length && trimmed[i] !== quote) {
      const ch = trimmed[i] ?? ''
      if (ch === '\\' && i + 1 < trimmed.length) {
        const esc = trimmed[i + 1] ?? ''
        if (esc === 'n') value += '\n'
        else if (esc === 't') value += '\t'
        else if (esc === 'x' || esc === 'u') {
          const width = esc === 'x' ? 2 : 4
          value += String.fromCharCode(parseInt(trimmed.slice(i + 2, i + 2 + width), 16))
          i += width
        } else value += esc
        i += 2
      } else {
        value += ch
        i += 1
      }
    }
    items.push(value)
    i += 1
  }
  return items
}

/**
 * Marks, for one category's quoted clause texts, the sentences they cover. A clause text is found
 * in the content after collapsing whitespace (quotes in CUAD are re-flowed) and split at CUAD's
 * `<omitted>` markers; a sentence is positive when at least half of the shorter of the two
 * overlaps. Returns the positive sentence indices and how many clause pieces were not found.
 */
export function labelSentences(
  content: string,
  sentences: readonly QuotedSpan[],
  clauseTexts: readonly string[],
  index: WhitespaceIndex = buildWhitespaceIndex(content),
): { positives: Set<number>; missing: number } {
  const positives = new Set<number>()
  const { spans, missing } = locateClauses(index, clauseTexts)
  for (const span of spans) {
    for (let s = 0; s < sentences.length; s += 1) {
      const sentence = sentences[s]
      if (!sentence || sentence.end <= span.start || sentence.start >= span.end) continue
      const overlap = Math.min(sentence.end, span.end) - Math.max(sentence.start, span.start)
      const shorter = Math.min(sentence.end - sentence.start, span.end - span.start)
      if (overlap >= shorter / 2) positives.add(s)
    }
  }
  return { positives, missing }
}

/**
 * Where quoted clause texts stand in the content (see labelSentences for how they are found):
 * their spans, and how many pieces were not found.
 */
export function locateClauses(
  index: WhitespaceIndex,
  clauseTexts: readonly string[],
): { spans: { start: number; end: number }[]; missing: number } {
  const spans: { start: number; end: number }[] = []
  let missing = 0
  for (const text of clauseTexts) {
    for (const piece of text.split('<omitted>')) {
      const needle = piece.replace(/\s+/g, ' ').trim().toLowerCase()
      if (needle.length < 3) continue
      const span = locate(index, needle)
      if (span) spans.push(span)
      else missing += 1
    }
  }
  return { spans, missing }
}

/** Content with whitespace runs collapsed to one space and lower-cased, with offsets back. */
export interface WhitespaceIndex {
  text: string
  offsets: number[]
}

/** Builds the whitespace-collapsed, lower-cased view of `content` that labelSentences searches. */
export function buildWhitespaceIndex(content: string): WhitespaceIndex {
  let text = ''
  const offsets: number[] = []
  let inSpace = false
  for (let i = 0; i < content.length; i += 1) {
    const ch = content[i] ?? ''
    if (/\s/.test(ch)) {
      if (!inSpace) {
        text += ' '
        offsets.push(i)
      }
      inSpace = true
    } else {
      text += ch.toLowerCase()
      offsets.push(i)
      inSpace = false
    }
  }
  offsets.push(content.length)
  return { text, offsets }
}

function locate(index: WhitespaceIndex, needle: string): { start: number; end: number } | null {
  let at = index.text.indexOf(needle)
  let length = needle.length
  if (at < 0 && needle.length > 120) {
    // Long quotes sometimes differ in a character or two; anchor on their opening words.
    at = index.text.indexOf(needle.slice(0, 80))
    if (at >= 0) length = needle.length
  }
  if (at < 0) return null
  const start = index.offsets[at] ?? 0
  const end = index.offsets[Math.min(at + length, index.offsets.length - 1)] ?? start
  return { start, end }
}
