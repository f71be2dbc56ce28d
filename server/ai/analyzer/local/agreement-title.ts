/** The contract's title and the kind of contract it names. */

/**
 * The contract's title: the first short line near the top that names an agreement ("CONSULTING
 * AGREEMENT", "Master Services Agreement"), in title case; null when there is none.
 */
export function agreementTitle(
  content: string,
): { value: string; start: number; end: number } | null {
  const head = content.slice(0, 3_000)
  const re =
    /^[ \t]*((?:[\p{L}&,'’-]+[ \t]+){0,8}?(?:AGREEMENT|Agreement|CONTRACT|Contract|LICEN[CS]E|Licen[cs]e|LEASE|Lease|TERMS OF SERVICE|Terms of Service))[ \t]*$/gmu
  const m = re.exec(head)
  if (!m || !m[1]) return null
  const start = m.index + m[0].indexOf(m[1])
  const value = m[1]
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(
      /(^|[\s-])(\p{L})/gu,
      (_, space: string, letter: string) => space + letter.toUpperCase(),
    )
    .replace(/\b(And|Of|The|For|To|In)\b/g, (word) => word.toLowerCase())
  return { value, start, end: start + m[1].length }
}

/** Contract kinds whose risks weigh differently (see assessRisks). */
export type ContractKind = 'employment' | 'commercial'

/** 'employment' for employment, consulting-by-an-individual and executive agreements by title. */
export function contractKind(title: string | null): ContractKind {
  return title && /\b(?:employment|executive|offer\s+letter|severance)\b/i.test(title)
    ? 'employment'
    : 'commercial'
}
