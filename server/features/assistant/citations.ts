/**
 * Citations of an answer: the [n] markers it contains, kept only when n numbers a passage the
 * assistant was given (decision 0018), each mapped to its document and character span.
 */

export interface CitedPassage {
  n: number
  documentId: string
  documentTitle: string
  start: number
  end: number
  content: string
}

export interface Citation {
  n: number
  documentId: string
  documentTitle: string
  start: number
  end: number
  /** The passage text, equal to the document's content between start and end. */
  quote: string
}

/** The distinct valid citations of `answer`, in order of first mention. */
export function citationsOf(answer: string, passages: readonly CitedPassage[]): Citation[] {
  const byNumber = new Map(passages.map((p) => [p.n, p]))
  const seen = new Set<number>()
  const out: Citation[] = []
  for (const match of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(match[1])
    const passage = byNumber.get(n)
    if (!passage || seen.has(n)) continue
    seen.add(n)
    out.push({
      n,
      documentId: passage.documentId,
      documentTitle: passage.documentTitle,
      start: passage.start,
      end: passage.end,
      quote: passage.content,
    })
  }
  return out
}
