/**
 * The Vector Store tester's search (product spec §5): Top K clamped to 1–50 (default 8); a
 * provided embedding JSON is used if present, otherwise the text is embedded. Throws an Error
 * with the spec's messages: 'Invalid embedding JSON: …', 'Provide text to embed.',
 * 'embed-text function must return { embedding: number[] }'.
 */
import { embedText, semanticSearch, type SemanticRow } from './api'

/** Top K from the field: an integer clamped to 1–50; 8 when empty or not a number. */
export function clampTopK(value: string): number {
  const k = Math.trunc(Number(value))
  if (value.trim() === '' || !Number.isFinite(k)) return 8
  return Math.min(50, Math.max(1, k))
}

/** The embedding to search with: the JSON if given, else the embedding of `text`. */
async function embeddingFor(
  scope: { orgId: string; appId: string | null },
  text: string,
  embeddingJson: string,
): Promise<number[]> {
  if (embeddingJson.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(embeddingJson)
    } catch (error) {
      throw new Error(`Invalid embedding JSON: ${(error as Error).message}`)
    }
    if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === 'number'))
      throw new Error('Invalid embedding JSON: expected an array of numbers')
    return parsed as number[]
  }
  if (text.trim() === '') throw new Error('Provide text to embed.')
  const answer = await embedText(scope.orgId, text, scope.appId)
  const embedding = (answer as { embedding?: unknown } | null)?.embedding
  if (!Array.isArray(embedding) || !embedding.every((v) => typeof v === 'number'))
    throw new Error('embed-text function must return { embedding: number[] }')
  return embedding as number[]
}

export async function runVectorSearch(
  scope: { orgId: string; appId: string | null },
  input: { text: string; embeddingJson: string; topK: string },
): Promise<SemanticRow[]> {
  const embedding = await embeddingFor(scope, input.text, input.embeddingJson)
  return semanticSearch(scope.orgId, scope.appId, embedding, clampTopK(input.topK))
}
