/**
 * Seeded pairs of versions for measuring the comparison engine (issue 46, decision 0146): a base
 * text and a revised copy with known edits, each recorded with its spans in both texts. The
 * edits fall on distinct paragraphs (runs of text between blank lines): words changed (a word
 * replaced, a number changed), paragraphs deleted, inserted and moved, and edits of form that must
 * not count as substantive (a section renumbered, a space doubled, a blank line added). The
 * generator knows nothing of the engine's clauses; it never edits a paragraph written twice. Used by scripts/eval-compare.ts and
 * bench/compare.ts.
 */
import { seededRandom } from './logistic-regression'

/** A half-open span into the base or the revised text. */
export interface SeededSpan {
  start: number
  end: number
}

/** One seeded edit; `base` or `revised` is null for an insertion or a deletion. */
export interface SeededEdit {
  kind: 'modified' | 'deleted' | 'inserted' | 'moved' | 'renumbered' | 'whitespace'
  substantive: boolean
  base: SeededSpan | null
  revised: SeededSpan | null
}

export interface SeededPair {
  base: string
  revised: string
  edits: SeededEdit[]
}

/** How many edits of each kind (at most; a short text gets fewer). */
export interface EditCounts {
  words: number
  deletions: number
  insertions: number
  moves: number
  renumberings: number
  whitespace: number
  /** Of the moves, how many also change a word of the moved paragraph (default 0). */
  editedMoves?: number
}

/** The harder set (`eval:compare -- --hard`): more of everything, a moved paragraph edited. */
export const HARD_EDITS: EditCounts = {
  words: 8,
  deletions: 2,
  insertions: 2,
  moves: 3,
  renumberings: 2,
  whitespace: 3,
  editedMoves: 2,
}

export const DEFAULT_EDITS: EditCounts = {
  words: 4,
  deletions: 1,
  insertions: 1,
  moves: 2,
  renumberings: 1,
  whitespace: 2,
}

/** Replacement words for a word change: plain words a drafter might swap in. */
const SUBSTITUTES = [
  'reasonable',
  'exclusive',
  'material',
  'written',
  'quarterly',
  'affiliated',
  'additional',
  'prior',
  'customary',
  'applicable',
]

/** Clauses a revision might add; none is in a CUAD contract word for word. */
const NEW_CLAUSES = [
  'Each party shall maintain, at its own cost, commercial general liability insurance of not less than two million dollars per occurrence and shall provide certificates of insurance on request.',
  'Neither party shall solicit for employment any employee of the other party engaged in the performance of this Agreement during its term and for twelve months thereafter.',
  'The Supplier shall comply with all applicable anti-bribery and anti-corruption laws and shall keep accurate books and records of every payment made under this Agreement.',
  'Any notice of a material breach shall describe the breach in reasonable detail, and the breaching party shall have forty-five days from receipt of the notice to cure it.',
  'The Customer may audit the records of the Provider relating to the fees charged under this Agreement once in each calendar year on thirty days prior written notice.',
  'All data supplied by one party to the other shall remain the property of the supplying party and shall be returned or destroyed within sixty days after termination.',
]

interface Item {
  text: string
  gapAfter: string
  /** Where the item stood in the base, or null for an inserted one. */
  baseStart: number | null
  /** A word edit inside the item: its offsets within the item's base and revised text. */
  edit?: SeededEdit & { inBase: SeededSpan; inRevised: SeededSpan }
  moved?: SeededEdit
  inserted?: SeededEdit
}

const wordCount = (text: string) => (text.match(/[A-Za-z]+/g) ?? []).length

/**
 * A revised copy of `base` with `counts` seeded edits (seed: any integer). Pure; the same seed
 * gives the same pair. Paragraphs are runs between blank lines; the first and last paragraph are
 * never edited (the title, the signatures).
 */
export function makeSeededPair(
  base: string,
  seed: number,
  counts: EditCounts = DEFAULT_EDITS,
): SeededPair {
  const random = seededRandom(seed)
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)]
  const items: Item[] = []
  const paragraph = /\S[\s\S]*?(?=\n[ \t]*\n|\s*$)/g
  let leading = ''
  let previousEnd = 0
  for (const m of base.matchAll(paragraph)) {
    const start = m.index ?? 0
    if (items.length === 0) leading = base.slice(0, start)
    else items[items.length - 1]!.gapAfter = base.slice(previousEnd, start)
    items.push({ text: m[0], gapAfter: '', baseStart: start })
    previousEnd = start + m[0].length
  }
  if (items.length > 0) items[items.length - 1]!.gapAfter = base.slice(previousEnd)
  const edits: SeededEdit[] = []
  // A paragraph written twice (a running legend, "Initials: ____") is never edited: which copy
  // moved or went is then not a fact of the pair, so no answer could be scored right or wrong.
  const copies = new Map<string, number>()
  for (const item of items) copies.set(item.text, (copies.get(item.text) ?? 0) + 1)
  const used = new Set<number>(
    items.flatMap((item, k) => ((copies.get(item.text) ?? 0) > 1 ? [k] : [])),
  )
  const free = (minWords: number, test: (t: string) => boolean = () => true) =>
    items
      .map((item, k) => ({ item, k }))
      .filter(
        ({ item, k }) =>
          k > 0 &&
          k < items.length - 1 &&
          !used.has(k) &&
          wordCount(item.text) >= minWords &&
          test(item.text),
      )
  const take = (minWords: number, test?: (t: string) => boolean) => {
    const choice = pick(free(minWords, test))
    if (choice) used.add(choice.k)
    return choice
  }

  /** Replaces a word (or a number) of `item` past its first 20 characters; false when none. */
  const changeWord = (item: Item): boolean => {
    const candidates = [...item.text.matchAll(/\b(?:[a-z]{5,}|\d{2,})\b/g)].filter(
      (m) => (m.index ?? 0) > 20,
    )
    const word = pick(candidates)
    if (!word) return false
    const at = word.index ?? 0
    const replacement = /^\d/.test(word[0])
      ? String(Number(word[0]) + 7)
      : (pick(SUBSTITUTES.filter((s) => s !== word[0])) ?? 'material')
    item.text = item.text.slice(0, at) + replacement + item.text.slice(at + word[0].length)
    item.edit = {
      kind: 'modified',
      substantive: true,
      base: null,
      revised: null,
      inBase: { start: at, end: at + word[0].length },
      inRevised: { start: at, end: at + replacement.length },
    }
    return true
  }
  // Words changed: a word (or a number) replaced in a paragraph of 20 words or more.
  for (let n = 0; n < counts.words; n += 1) {
    const choice = take(20)
    if (!choice) break
    changeWord(choice.item)
  }
  // Form only: a section's own number changed; a space doubled; a blank line added.
  for (let n = 0; n < counts.renumberings; n += 1) {
    const choice = take(8, (t) => /^\d+(?:\.\d+)*\.?\s/.test(t))
    if (!choice) break
    const { item } = choice
    const label = /^((?:\d+\.)*)(\d+)(\.?\s)/.exec(item.text)!
    const renumbered = `${label[1]}${Number(label[2]) + 1}`
    item.text = renumbered + item.text.slice(label[1]!.length + label[2]!.length)
    item.edit = {
      kind: 'renumbered',
      substantive: false,
      base: null,
      revised: null,
      inBase: { start: 0, end: label[1]!.length + label[2]!.length },
      inRevised: { start: 0, end: renumbered.length },
    }
  }
  for (let n = 0; n < counts.whitespace; n += 1) {
    const choice = take(8, (t) => / [a-z]/.test(t))
    if (!choice) break
    const { item } = choice
    if (n % 2 === 0) {
      const spaces = [...item.text.matchAll(/ (?=[a-z])/g)]
      const space = pick(spaces)!
      const at = space.index ?? 0
      item.text = `${item.text.slice(0, at)}  ${item.text.slice(at + 1)}`
      item.edit = {
        kind: 'whitespace',
        substantive: false,
        base: null,
        revised: null,
        inBase: { start: at, end: at + 1 },
        inRevised: { start: at, end: at + 2 },
      }
    } else {
      item.gapAfter += '\n'
      item.edit = {
        kind: 'whitespace',
        substantive: false,
        base: null,
        revised: null,
        inBase: { start: item.text.length, end: item.text.length },
        inRevised: { start: item.text.length, end: item.text.length + 1 },
      }
    }
  }
  // Paragraphs deleted.
  for (let n = 0; n < counts.deletions; n += 1) {
    const choice = take(10)
    if (!choice) break
    const start = choice.item.baseStart!
    edits.push({
      kind: 'deleted',
      substantive: true,
      base: { start, end: start + choice.item.text.length },
      revised: null,
    })
    items[choice.k] = { ...choice.item, text: '', gapAfter: '' }
  }
  // Paragraphs moved at least five paragraphs away (recorded once the revised text is laid out).
  const moves: { from: number; item: Item }[] = []
  for (let n = 0; n < counts.moves; n += 1) {
    const choice = take(15)
    if (!choice) break
    const targets = free(0).filter(({ k }) => Math.abs(k - choice.k) >= 5)
    const target = pick(targets)
    if (!target) continue
    used.add(target.k)
    const moved: Item = { ...choice.item }
    moved.moved = {
      kind: 'moved',
      substantive: true,
      base: { start: moved.baseStart!, end: moved.baseStart! + moved.text.length },
      revised: null,
    }
    if (moved.gapAfter.trim() !== '' || !moved.gapAfter.includes('\n')) moved.gapAfter = '\n\n'
    // The first `editedMoves` moved paragraphs also get a word changed.
    if (n < (counts.editedMoves ?? 0)) changeWord(moved)
    items[choice.k] = { ...choice.item, text: '', gapAfter: '' }
    moves.push({ from: target.k, item: moved })
  }
  // Paragraphs inserted, after a paragraph nothing else touched.
  const insertions: { after: number; item: Item }[] = []
  for (let n = 0; n < counts.insertions; n += 1) {
    const target = take(0)
    if (!target) break
    const text = NEW_CLAUSES[Math.floor(random() * NEW_CLAUSES.length)]!
    insertions.push({
      after: target.k,
      item: {
        text,
        gapAfter: '\n\n',
        baseStart: null,
        inserted: { kind: 'inserted', substantive: true, base: null, revised: null },
      },
    })
  }
  const laidOut: Item[] = []
  items.forEach((item, k) => {
    if (item.text !== '' || item.gapAfter !== '') laidOut.push(item)
    for (const m of moves) if (m.from === k) laidOut.push(m.item)
    for (const ins of insertions) if (ins.after === k) laidOut.push(ins.item)
  })
  let revised = leading
  for (const item of laidOut) {
    const start = revised.length
    revised += item.text + item.gapAfter
    if (item.edit) {
      const { inBase, inRevised, ...edit } = item.edit
      edits.push({
        ...edit,
        base: { start: item.baseStart! + inBase.start, end: item.baseStart! + inBase.end },
        revised: { start: start + inRevised.start, end: start + inRevised.end },
      })
    }
    if (item.moved) edits.push({ ...item.moved, revised: { start, end: start + item.text.length } })
    if (item.inserted)
      edits.push({ ...item.inserted, revised: { start, end: start + item.text.length } })
  }
  return { base, revised, edits }
}
