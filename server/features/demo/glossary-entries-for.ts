/**
 * Which glossary entries a demo question is about: an entry matches only when one of its terms
 * appears in the question as a whole phrase (words stemmed with Porter2, hyphens as spaces), so a
 * question about an NDA never meets the entry on what makes a contract binding, and a question
 * naming no glossary term matches nothing (issue 43). The longest matching term wins: "third
 * party beneficiary" before "party".
 */
import stem from 'wink-porter2-stemmer'
import { CONTRACT_GLOSSARY, type GlossaryEntry } from './contract-glossary'

/** Entries given to the answerer at most (a question naming two terms may compare them). */
export const MAX_GLOSSARY_ENTRIES = 2

/** `text` as stemmed words: lower case, hyphens and punctuation as spaces. */
function stemmedWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => stem(word))
}

/** Whether `phrase` occurs in `words` as consecutive words. */
function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= words.length; i++)
    if (phrase.every((word, j) => words[i + j] === word)) return true
  return false
}

const STEMMED_TERMS = CONTRACT_GLOSSARY.map((entry) => ({
  entry,
  terms: entry.terms.map(stemmedWords),
}))

/**
 * The entries of CONTRACT_GLOSSARY `question` names, best first: those whose longest matching term
 * has the most words, at most MAX_GLOSSARY_ENTRIES; empty when it names none.
 */
export function glossaryEntriesFor(question: string): GlossaryEntry[] {
  const words = stemmedWords(question)
  const scored = STEMMED_TERMS.map(({ entry, terms }) => ({
    entry,
    score: Math.max(0, ...terms.filter((t) => containsPhrase(words, t)).map((t) => t.length)),
  })).filter((s) => s.score > 0)
  const best = Math.max(0, ...scored.map((s) => s.score))
  return scored
    .filter((s) => s.score === best)
    .slice(0, MAX_GLOSSARY_ENTRIES)
    .map((s) => s.entry)
}
