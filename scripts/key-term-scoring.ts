/**
 * Scoring rules for key terms against CUAD's normalised answers (the `<field>-Answer` columns of
 * master_clauses.csv; CUAD v1, The Atticus Project, Hendrycks et al. 2021, CC BY 4.0), as issue 6
 * defines them. Used by scripts/eval-cuad.ts; pure functions, no file access.
 */
import { NUMBER_WORDS } from '../server/ai/analyzer/local/dates'
import type { KeyTerm, KeyTerms } from '../server/ai/analyzer/types'

/**
 * Corporate-form words dropped from party names before comparing them, written as they look once
 * dots are removed ("N.A." → "na", "S.A." → "sa").
 */
const CORPORATE_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'llc',
  'ltd',
  'limited',
  'corp',
  'corporation',
  'co',
  'company',
  'na',
  'bv',
  'nv',
  'gmbh',
  'ag',
  'sa',
  'plc',
  'lp',
  'llp',
  'pte',
  'pty',
])

/** Generic roles that, alone, name no party ("Parties", "Company", "Distributor"). */
const ROLE_WORDS = new Set([
  'party',
  'parties',
  'company',
  'licensor',
  'licensee',
  'licensors',
  'licensees',
  'distributor',
  'supplier',
  'customer',
  'buyer',
  'seller',
  'vendor',
  'client',
  'contractor',
  'consultant',
  'manufacturer',
  'franchisor',
  'franchisee',
  'lender',
  'borrower',
  'employee',
  'employer',
  'agent',
  'provider',
  'reseller',
  'each',
  'both',
  'all',
  'the',
])

/**
 * Words of the remarks a label adds after the names ("Company and Consultant (individually, a
 * Party; collectively, the Parties)", "Each of the foregoing parties is referred to herein as a
 * Party"): an entry made only of these, roles and other entries' terms names no party.
 */
const REMARK_WORDS = new Set([
  'a',
  'an',
  'as',
  'of',
  'to',
  'is',
  'are',
  'be',
  'shall',
  'herein',
  'hereinafter',
  'referred',
  'individually',
  'singularly',
  'collectively',
  'together',
  'foregoing',
  'individual',
])

/**
 * A party name in comparable form: lower case, dots removed, other punctuation and quotes turned
 * into spaces, corporate suffixes dropped (unless nothing else remains), whitespace collapsed.
 * "Acme Holdings, Inc." → "acme holdings"; "Bank of America, N.A." → "bank of america".
 */
export function normalisePartyName(name: string): string {
  const words = name
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word.length > 0)
  const kept = words.filter((word) => !CORPORATE_SUFFIXES.has(word))
  return (kept.length > 0 ? kept : words).join(' ')
}

/**
 * The labelled party names of a `Parties-Answer` cell: entries separated by `;`, bracketed
 * defined terms and remarks removed, each normalised. Entries that only repeat defined terms or
 * roles or other entries' names ("Parties", "Hydraspin and Distributor", "Lender, Endorser and
 * Fitness") are skipped.
 */
export function parsePartiesLabel(cell: string): string[] {
  const entries = splitOutsideBrackets(cell)
    .map((entry) => ({
      raw: entry.replace(/\([^)]*\)?/g, ' '),
      name: normalisePartyName(entry.replace(/\([^)]*\)?/g, ' ')),
      terms: [...entry.matchAll(/["“”]([^"“”]{1,60})["“”]/g)].map((m) =>
        normalisePartyName(m[1] ?? ''),
      ),
    }))
    .filter(
      (entry, i, all) => entry.name !== '' && all.findIndex((e) => e.name === entry.name) === i,
    )
  return entries
    .filter((entry) => {
      const others = entries.filter((other) => other !== entry)
      const otherTerms = new Set(others.flatMap((other) => other.terms))
      const isKnown = (piece: string): boolean => {
        // "Tsinghua shall collectively be referred to as the Parties": remark words say nothing.
        const rest = piece
          .split(' ')
          .filter((word) => !ROLE_WORDS.has(word) && !REMARK_WORDS.has(word))
          .join(' ')
        return (
          rest === '' ||
          otherTerms.has(piece) ||
          otherTerms.has(rest) ||
          rest.split(' ').every((word) => otherTerms.has(word)) ||
          others.some((other) => other.name === piece || other.name === rest)
        )
      }
      const joiner = /\s(?:and|or|together\s*with)\s|\s*&\s*/i
      const pieces = ` ${entry.name} `.split(joiner).map((piece) => piece.trim())
      // "Party A, Party B and Party C": commas separate terms too.
      const listed = ` ${entry.raw} `
        .split(new RegExp(`,|${joiner.source}`, 'i'))
        .map(normalisePartyName)
      return !pieces.every(isKnown) && !listed.every(isKnown)
    })
    .map((entry) => entry.name)
}

/**
 * `cell` split at `;`, except where a remark's brackets hold one: a piece that leaves a bracket
 * open followed by one that closes more than it opens are one entry ("A and B (individually, a
 * Party; collectively, the Parties)"). A bracket around the whole cell does not join anything.
 */
function splitOutsideBrackets(cell: string): string[] {
  const balance = (piece: string) =>
    (piece.match(/\(/g) ?? []).length - (piece.match(/\)/g) ?? []).length
  const parts: string[] = []
  for (const piece of cell.split(';')) {
    const last = parts.length - 1
    if (last >= 0 && balance(parts[last] ?? '') > 0 && balance(piece) < 0)
      parts[last] = `${parts[last] ?? ''};${piece}`
    else parts.push(piece)
  }
  return parts
}

/**
 * Whether two normalised party names match: equal, or one contains the other as whole words
 * (so "acme" matches "acme holdings" but not "acmecorp"). Empty names match nothing.
 */
export function partyNamesMatch(a: string, b: string): boolean {
  if (a === '' || b === '') return false
  const paddedA = ` ${a} `
  const paddedB = ` ${b} `
  return paddedA.includes(paddedB) || paddedB.includes(paddedA)
}

/**
 * A CUAD date answer as ISO `YYYY-MM-DD`: `m/d/yy` or `m/d/yyyy` (two-digit years pivot at 50),
 * or "perpetual" (any case). Null for an unusable label: empty, partial (`[]/[]/2020`), several
 * dates, or anything else.
 */
export function parseLabelDate(cell: string): string | null {
  const trimmed = cell.trim()
  if (/^perpetual$/i.test(trimmed)) return 'perpetual'
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(trimmed)
  if (!m) return null
  let year = Number(m[3])
  if ((m[3] ?? '').length === 2) year += year < 50 ? 2000 : 1900
  const month = Number(m[1])
  const day = Number(m[2])
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return date.toISOString().slice(0, 10)
}

/** Days per unit for comparing periods: a month is 30 days and a year 365 (so 3 months = 90 days). */
const DAYS_PER_UNIT: Readonly<Record<string, number>> = {
  day: 1,
  week: 7,
  month: 30,
  year: 365,
}

/**
 * A period written as "<n> <unit>" pieces ("successive 1 year", "three (3) years", "4 years, 6
 * months", "(6) months", "12 Months"), as months (`unit` 'months', a year being 12) or days
 * (`unit` 'days', see DAYS_PER_UNIT). The pieces of one period add up; alternatives after "/"
 * are ignored. Null when no period is written, or when `;` lists several periods.
 */
export function parsePeriod(cell: string, unit: 'months' | 'days'): number | null {
  const pieces = cell
    .split(';')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
  if (pieces.length !== 1) return null
  const first = (pieces[0] ?? '').split('/')[0] ?? ''
  let days = 0
  let months = 0
  let found = false
  const re = /(\d+(?:\.\d+)?|[a-z]+)\)?\s*(?:\(\s*\d+\s*\)\s*)?(year|month|week|day)s?\b/gi
  for (const m of first.matchAll(re)) {
    const raw = (m[1] ?? '').toLowerCase()
    const amount = /^\d/.test(raw) ? Number(raw) : NUMBER_WORDS[raw]
    const name = (m[2] ?? '').toLowerCase()
    if (amount === undefined || !Number.isFinite(amount)) continue
    found = true
    days += amount * (DAYS_PER_UNIT[name] ?? 0)
    months +=
      name === 'year'
        ? amount * 12
        : name === 'month'
          ? amount
          : (amount * (DAYS_PER_UNIT[name] ?? 0)) / 30
  }
  if (!found) return null
  return unit === 'days' ? days : months
}

/** Whether two periods in the same unit agree, allowing 2% for month-versus-day rounding. */
export function periodsMatch(expected: number, got: number | null): boolean {
  if (got === null) return false
  return Math.abs(expected - got) <= Math.max(0.01, expected * 0.02)
}

/** Hits and misses of one field, with the first few misses kept as examples. */
export interface FieldScore {
  field: string
  hits: number
  total: number
  misses: { file: string; expected: string; got: string }[]
  /** How many miss examples to keep. */
  keep: number
}

/** A new, empty field score. */
export function fieldScore(field: string, keep = 3): FieldScore {
  return { field, hits: 0, total: 0, misses: [], keep }
}

/** Records one comparison; keeps at most `score.keep` miss examples. */
export function record(
  score: FieldScore,
  hit: boolean,
  example: { file: string; expected: string; got: string },
): void {
  score.total += 1
  if (hit) score.hits += 1
  else if (score.misses.length < score.keep) score.misses.push(example)
}

/** The key-term fields eval:cuad scores, in table order, with their JSON names. */
export const KEY_TERM_FIELDS = [
  'parties_recall',
  'parties_precision',
  'agreement_date_accuracy',
  'effective_date_accuracy',
  'expiration_date_accuracy',
  'renewal_term_accuracy',
  'notice_period_accuracy',
] as const
export type KeyTermField = (typeof KEY_TERM_FIELDS)[number]

/** Empty scores for every key-term field, each keeping `keep` miss examples. */
export function keyTermScores(keep = 3): Record<KeyTermField, FieldScore> {
  return Object.fromEntries(
    KEY_TERM_FIELDS.map((field) => [field, fieldScore(field, keep)]),
  ) as Record<KeyTermField, FieldScore>
}

/**
 * Scores one contract's extracted key terms against its CUAD answers (keyed by column name
 * without "-Answer": "Parties", "Agreement Date", "Notice Period To Terminate Renewal", …).
 * Fields whose label is unusable are not counted.
 */
export function scoreKeyTerms(
  scores: Record<KeyTermField, FieldScore>,
  file: string,
  answers: ReadonlyMap<string, string>,
  keyTerms: KeyTerms,
): void {
  const labelled = parsePartiesLabel(answers.get('Parties') ?? '')
  if (labelled.length > 0) {
    const extracted = keyTerms.parties.map((party) => normalisePartyName(party.name))
    const got = keyTerms.parties.map((party) => party.name).join('; ') || '(none)'
    for (const name of labelled)
      record(
        scores.parties_recall,
        extracted.some((e) => partyNamesMatch(e, name)),
        {
          file,
          expected: name,
          got,
        },
      )
    for (const name of extracted)
      record(
        scores.parties_precision,
        labelled.some((l) => partyNamesMatch(name, l)),
        {
          file,
          expected: labelled.join('; '),
          got: name,
        },
      )
  }
  const dates: [KeyTermField, string, KeyTerm | null][] = [
    ['agreement_date_accuracy', 'Agreement Date', keyTerms.agreementDate],
    ['effective_date_accuracy', 'Effective Date', keyTerms.effectiveDate],
    ['expiration_date_accuracy', 'Expiration Date', keyTerms.expirationDate],
  ]
  for (const [field, column, term] of dates) {
    const expected = parseLabelDate(answers.get(column) ?? '')
    if (expected === null) continue
    const got = term?.value ?? '(none)'
    record(scores[field], got.toLowerCase() === expected, { file, expected, got })
  }
  const periods: [KeyTermField, string, KeyTerm | null, 'months' | 'days'][] = [
    ['renewal_term_accuracy', 'Renewal Term', keyTerms.renewalTerm, 'months'],
    ['notice_period_accuracy', 'Notice Period To Terminate Renewal', keyTerms.noticePeriod, 'days'],
  ]
  for (const [field, column, term, unit] of periods) {
    const label = answers.get(column) ?? ''
    const expected = parsePeriod(label, unit)
    if (expected === null) continue
    const got = term ? parsePeriod(term.value, unit) : null
    record(scores[field], periodsMatch(expected, got), {
      file,
      expected: label.trim(),
      got: term?.value ?? '(none)',
    })
  }
}
