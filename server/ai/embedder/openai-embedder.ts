/**
 * The `openai` Embedder: POST {baseUrl}/embeddings (the OpenAI wire format, also served by
 * Azure, vLLM, Ollama, LocalAI) with AI_EMBED_MODEL and a fixed `dimensions`
 * (AI_EMBED_DIMENSIONS); an answer of another length is an error, never stored.
 */
import OpenAI from 'openai'
import type { Embedder } from './types'

/** Texts per request (OpenAI accepts up to 2048 inputs). */
const BATCH = 256

export class OpenAIEmbedder implements Embedder {
  readonly id: string
  private readonly client: OpenAI

  constructor(
    private readonly options: { baseURL: string; apiKey?: string; model: string; dim: number },
  ) {
    this.id = `openai:${options.model}:${options.dim}`
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey ?? 'none',
      maxRetries: 2,
      timeout: 60_000,
    })
  }

  get dim(): number {
    return this.options.dim
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = []
    for (let i = 0; i < texts.length; i += BATCH) {
      const res = await this.client.embeddings.create(
        {
          model: this.options.model,
          input: texts.slice(i, i + BATCH) as string[],
          dimensions: this.options.dim,
          encoding_format: 'float',
        },
        { signal },
      )
      const rows = [...res.data].sort((a, b) => a.index - b.index)
      for (const row of rows) {
        if (row.embedding.length !== this.options.dim)
          throw new Error(
            `the embedding model answered ${row.embedding.length} dimensions, expected ${this.options.dim}`,
          )
        out.push(normalised(row.embedding))
      }
    }
    if (out.length !== texts.length)
      throw new Error(
        `the embedding model answered ${out.length} vectors for ${texts.length} texts`,
      )
    return out
  }
}

function normalised(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0))
  return norm > 0 ? vector.map((v) => v / norm) : vector
}
