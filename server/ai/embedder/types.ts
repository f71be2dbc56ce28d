/**
 * The Embedder seam: texts in, fixed-dimension vectors out, one per text, in order. `id` names
 * the engine, model and dimension (e.g. `local:lexdesk-ppmi-2:384`); stored embeddings carry it,
 * so vectors of different engines are never compared (a change is a re-embed, decision 0016).
 */
export interface Embedder {
  /** Engine, model and dimension, as stored with each embedding. */
  readonly id: string
  readonly dim: number
  /** One L2-normalised vector of `dim` numbers per text. Throws on engine failure. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
  close?(): Promise<void>
}
