/**
 * Search hits ordered by what each passage is in its contract (decision 0117): a heading, a
 * section's caption, page furniture (page numbers, filing footers), a table of contents, a
 * signature block or an exhibit's title never answers a question, yet it shares the question's
 * words ("Term", "9. Governing Law", "Confidential Information" in a running header) and its
 * vector is all topic. The clause it names does answer. The kinds are the reading layer's
 * (server/ai/analyzer/local/structure/block-kind.ts), so search and findings agree on what a
 * heading is.
 */
import { blockKind, type BlockKind } from '../ai/analyzer/local/structure/block-kind'

/** Kinds that name or frame a provision without stating one. */
const FURNITURE: ReadonlySet<BlockKind> = new Set([
  'heading',
  'section-heading',
  'page-furniture',
  'contents',
  'signature',
  'exhibit-title',
])

/** Kinds that are captions: blockKind also gives them to any short text without a verb. */
const CAPTIONS: ReadonlySet<BlockKind> = new Set(['heading', 'section-heading'])

/** Small words a caption leaves in lower case ("Return of Materials", "Use of the Name"). */
const CAPTION_SMALL_WORDS = new Set(
  'a an and as at by for from in into of on or the to with'.split(' '),
)

/**
 * Whether `text` is written as a caption: every word of letters is capitalised (or all caps),
 * small words aside. A short passage in sentence case is a list item ("(a) to its employees
 * who need to know it;") or a fragment of a clause, which blockKind, reading one sentence of a
 * contract, would also call a heading; a search's passage may be either (ContractNLI's spans are).
 */
function writtenAsCaption(text: string): boolean {
  const words = text.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []
  return words.every((word) => /^[A-Z]/.test(word) || CAPTION_SMALL_WORDS.has(word))
}

/** Whether `text` (one passage) is furniture: a heading, caption, footer, signature … */
export function isFurniture(text: string): boolean {
  const kind = blockKind(text)
  return FURNITURE.has(kind) && (!CAPTIONS.has(kind) || writtenAsCaption(text))
}

/**
 * `hits` (best first) with every furniture passage moved after the others, each group keeping
 * its order; a moved passage's score is capped at the last other passage's, so scores still
 * fall down the list. Pure; never throws.
 */
export function rankByStructure<T extends { content: string; score: number }>(
  hits: readonly T[],
): T[] {
  const furniture = hits.map((hit) => isFurniture(hit.content))
  const clauses = hits.filter((_, i) => !furniture[i])
  const floor = clauses.at(-1)?.score ?? Number.POSITIVE_INFINITY
  return [
    ...clauses,
    ...hits.flatMap((hit, i) =>
      furniture[i] ? [{ ...hit, score: Math.min(hit.score, floor) }] : [],
    ),
  ]
}
