/**
 * The `local` chat engine: no generative model. A yes/no question is decided by rule from the
 * passages' own wording (decide-yes-no.ts): the answer leads with 'Yes', 'No' ('No, not without
 * consent' for a prohibition lifted by a party's consent) or 'Not addressed in this document',
 * then quotes the deciding passage, then any qualifying passages. When the passages come from
 * several documents (the question named none and no scope was chosen), it answers for each
 * document apart, from that document's passages only (issue 48). Any other
 * question: it says plainly that no model is configured and quotes the best retrieved passages.
 * Every quote is verbatim and followed by its [n] marker, so it equals its cited span; text in a
 * passage is never followed as an instruction.
 */
import { decideYesNo, type YesNoAnswer } from './decide-yes-no'
import { isYesNoQuestion } from './yes-no-question'
import type { ChatEngine, ChatPassage, ChatTurn } from './types'

export const NO_MODEL_NOTICE =
  'No generative model is configured on this server, so this answer quotes the passages that best match your question instead of writing one.'

/** Passages quoted at most. */
const MAX_QUOTES = 3

export class LocalChat implements ChatEngine {
  readonly id = 'local:extractive'

  async *answer(turns: readonly ChatTurn[], passages: readonly ChatPassage[]) {
    const question = turns.at(-1)?.content ?? ''
    const byDocument = documentsOf(passages)
    if (byDocument.length > 1 && isYesNoQuestion(question)) {
      yield* perDocument(question, byDocument)
      return
    }
    const decided = decideYesNo(question, passages)
    if (decided) {
      yield* yesNoAnswer(decided)
      return
    }
    yield NO_MODEL_NOTICE
    if (passages.length === 0) {
      yield '\n\nNo passage of your documents matches the question.'
      return
    }
    for (const passage of passages.slice(0, MAX_QUOTES)) {
      yield `\n\n${passage.title}: “${passage.content}” [${passage.n}]`
    }
  }
}

/** Documents answered apart at most, in the order of their best passage. */
const MAX_DOCUMENTS = 3

export const PER_DOCUMENT_NOTICE =
  'Your question names no document and the passages found come from several, so here is an answer for each document, from its own passages only. Ask from a document\'s page ("Ask about this document") or name it ("Under the … agreement, …") for one answer.'

/** The passages grouped by document (id, else title), in the order of each one's best passage. */
function documentsOf(passages: readonly ChatPassage[]): ChatPassage[][] {
  const groups = new Map<string, ChatPassage[]>()
  for (const p of passages) {
    const key = p.documentId ?? p.title
    groups.set(key, [...(groups.get(key) ?? []), p])
  }
  return [...groups.values()]
}

/** A yes/no answer per document, each decided from and quoting only that document's passages. */
function* perDocument(question: string, documents: readonly ChatPassage[][]): Iterable<string> {
  yield PER_DOCUMENT_NOTICE
  for (const own of documents.slice(0, MAX_DOCUMENTS)) {
    const decided = decideYesNo(question, own)
    if (!decided) continue
    yield `\n\n${own[0]!.title}: `
    yield* yesNoAnswer(decided)
  }
}

/** The lead of a yes/no answer, by decision. */
export const DECISION_LEADS = {
  yes: 'Yes.',
  no: 'No.',
  'not-addressed': 'Not addressed in this document.',
} as const

/** The lead of a No that a party's consent would lift ("shall not, without consent, …"). */
export const NOT_WITHOUT_CONSENT = 'No, not without consent.'

const quote = (p: ChatPassage) => `${p.title}: “${p.content}” [${p.n}]`

/** The decision, the deciding passage, then the qualifications. */
function* yesNoAnswer(decided: YesNoAnswer): Iterable<string> {
  yield decided.unlessConsent ? NOT_WITHOUT_CONSENT : DECISION_LEADS[decided.decision]
  if (!decided.passage) {
    yield ' No passage of the document speaks to this question closely enough to decide it.'
    return
  }
  yield `\n\nDeciding passage: ${quote(decided.passage)}`
  if (decided.qualifications.length > 0)
    yield `\n\nQualifications: ${decided.qualifications.map(quote).join('\n\n')}`
  yield "\n\nDecided by rule from the passage's own wording (no generative model is configured on this server): read the passage before relying on it."
}
