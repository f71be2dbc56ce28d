/** wink-porter2-stemmer ships no types: it exports one function, word → its Porter2 stem. */
declare module 'wink-porter2-stemmer' {
  /** The Porter2 (Snowball English) stem of a lower-case word, e.g. "licensing" → "licens". */
  export default function stem(word: string): string
}
