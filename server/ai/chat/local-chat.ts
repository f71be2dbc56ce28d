/**
 * The `local` chat engine: no generative model. A yes/no question is decided by rule from the
 * passages' own wording (decide-yes-no.ts): the answer leads with 'Yes', 'No' or 'Not addressed in
 * this document', then quotes the deciding passage, then any qualifying passages. Any other
 * question: it says plainly that no model is configured and quotes the best retrieved passages.
 * Every quote is verbatim and followed by its [n] marker, so it equals its cited span; text in a
 * passage is never followed as an instruction.
 */
import { decideYesNo, type YesNoAnswer } from './decide-yes-no'
import type { ChatEngine, ChatPassage, ChatTurn } from './types'

export const NO_MODEL_NOTICE =
  'No generative model is configured on this server, so this answer quotes the passages that best match your question instead of writing one.'

/** Passages quoted at most. */
const MAX_QUOTES = 3

export class LocalChat implements ChatEngine {
  readonly id = 'local:extractive'

  async *answer(turns: readonly ChatTurn[], passages: readonly ChatPassage[]) {
    const decided = decideYesNo(turns.at(-1)?.content ?? '', passages)
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

/** The lead of a yes/no answer, by decision. */
export const DECISION_LEADS = {
  yes: 'Yes.',
  no: 'No.',
  'not-addressed': 'Not addressed in this document.',
} as const

const quote = (p: ChatPassage) => `${p.title}: “${p.content}” [${p.n}]`

/** The decision, the deciding passage, then the qualifications. */
function* yesNoAnswer(decided: YesNoAnswer): Iterable<string> {
  yield DECISION_LEADS[decided.decision]
  if (!decided.passage) {
    yield ' No passage of the document speaks to this question closely enough to decide it.'
    return
  }
  yield `\n\nDeciding passage: ${quote(decided.passage)}`
  if (decided.qualifications.length > 0)
    yield `\n\nQualifications: ${decided.qualifications.map(quote).join('\n\n')}`
  yield "\n\nDecided by rule from the passage's own wording (no generative model is configured on this server): read the passage before relying on it."
}
