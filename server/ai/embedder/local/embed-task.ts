/** WorkerPool task: local embeddings of many texts (local-embedding.ts), off the event loop. */
import { embedLocal } from './local-embedding'
import { wordTable } from './word-table'

export function embedTextsTask(input: { texts: string[] }): number[][] {
  const table = wordTable()
  return input.texts.map((text) => embedLocal(table, text))
}
