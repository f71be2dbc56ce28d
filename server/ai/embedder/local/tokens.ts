/**
 * Word tokens of the local embedder and its trainer: lower-cased runs of ASCII letters (with
 * inner apostrophes dropped), two letters or more. The same function at training and at embedding
 * time, so the vocabulary and the text agree.
 */
const WORD = /[a-z]+(?:'[a-z]+)?/g

/** The word tokens of `text`, in order. */
export function wordTokens(text: string): string[] {
  const words: string[] = []
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/'/g, '')
    if (word.length >= 2) words.push(word)
  }
  return words
}
