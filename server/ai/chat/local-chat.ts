/**
 * The `local` chat engine: no generative model. It says so plainly and quotes the best retrieved
 * passages verbatim, each followed by its [n] marker, so every quote equals its cited span.
 * Passages are only ever quoted, never interpreted, so text in them cannot change the answer.
 */
import type { ChatEngine, ChatPassage, ChatTurn } from './types'

export const NO_MODEL_NOTICE =
  'No generative model is configured on this server, so this answer quotes the passages that best match your question instead of writing one.'

/** Passages quoted at most. */
const MAX_QUOTES = 3

export class LocalChat implements ChatEngine {
  readonly id = 'local:extractive'

  async *answer(_turns: readonly ChatTurn[], passages: readonly ChatPassage[]) {
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
