/**
 * The Chat seam: answers a question from numbered passages, streaming text. Answers cite passages
 * as [n] markers; the caller maps markers to passages and drops any that match none.
 */

/** A retrieved passage, numbered from 1 in the order given to the engine. */
export interface ChatPassage {
  n: number
  title: string
  content: string
  /** The passage's document, when known: answers about one document group passages by it. */
  documentId?: string
}

export interface ChatTurn {
  role: 'user' | 'assistant'
  content: string
}

export interface ChatEngine {
  /** Engine and model, e.g. `local:extractive` or `openai:gpt-4o-mini`. */
  readonly id: string
  /**
   * Streams the answer to the last user turn of `turns` from `passages` (text deltas). Throws
   * (also mid-stream) when the engine fails.
   */
  answer(
    turns: readonly ChatTurn[],
    passages: readonly ChatPassage[],
    signal?: AbortSignal,
  ): AsyncIterable<string>
  close?(): Promise<void>
}
