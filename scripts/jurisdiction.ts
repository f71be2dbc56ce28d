/** Comparing jurisdiction answers of CUAD labels and extracted key terms (eval scripts only). */

/**
 * A comparable form of a jurisdiction answer: lower case, "the State of"-style prefixes and
 * country qualifiers removed, several jurisdictions sorted ("England, United Kingdom; Wales,
 * United Kingdom" and "England and Wales" both give "england|wales"). "" for no answer.
 */
export function normaliseJurisdiction(value: string): string {
  const cleaned = value.trim().toLowerCase()
  if (cleaned === '' || cleaned === '[]') return ''
  const parts = cleaned
    .replace(/’/g, "'")
    .split(/;|\band\b|&/)
    .map((part) =>
      part
        .replace(/\b(?:the|laws? of|state of|commonwealth of|province of|republic of)\b/g, ' ')
        .replace(
          /,?\s*(?:united states(?: of america)?|usa|u\.s\.a?\.?|canada|united kingdom|uk)\s*$/,
          '',
        )
        .replace(/\bpeople's\b/g, '')
        .replace(/\bprc\b/g, 'china')
        .replace(/[^a-z ]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((part) => part.length > 0)
  return [...new Set(parts)].sort().join('|')
}
