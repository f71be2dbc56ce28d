/**
 * One chat completion whose answer must be JSON of a given zod schema, from any OpenAI-compatible
 * server (decision 0116). It asks for `response_format: { type: 'json_schema', json_schema:
 * { strict: true, schema } }` (the schema from the zod one through the `openai` SDK's
 * `zodResponseFormat`); a server that refuses json_schema (HTTP 400, 422 or 501 to that request)
 * is asked again with `json_object` and the JSON Schema written into the system prompt, and once
 * that works the instance keeps asking that way. The answer is parsed and validated against the
 * zod schema either way, because a json_object server (and a strict one that ignores the schema)
 * can still answer any JSON.
 */
import OpenAI, { APIError } from 'openai'
import { zodResponseFormat } from 'openai/helpers/zod'
import { z } from 'zod'

/** How the answer's shape is asked for: the server enforces the schema, or only "some JSON". */
export type StructuredMode = 'json_schema' | 'json_object'

/**
 * The model answered, but not with what was asked (no content, a refusal, cut off, not JSON, or
 * JSON of another shape). Its message names the fault and the schema path, never the answer's
 * text, which may quote the document.
 */
export class StructuredOutputError extends Error {
  override readonly name = 'StructuredOutputError'
}

/** What one structured request sends: the schema's `name` is the json_schema name. */
export interface StructuredRequest<T> {
  model: string
  name: string
  schema: z.ZodType<T>
  system: string
  user: string
  signal?: AbortSignal
}

/**
 * Statuses with which servers refuse a `response_format` they do not support: 400 (OpenAI-style
 * validation, vLLM, llama.cpp), 422 (FastAPI-based servers' validation) and 501.
 */
const REFUSAL_STATUSES = new Set([400, 422, 501])

/** Sends structured requests over one client, remembering whether the server takes json_schema. */
export class StructuredCompletion {
  private modeInUse: StructuredMode = 'json_schema'

  constructor(private readonly client: OpenAI) {}

  /** The mode the next request starts with. */
  get mode(): StructuredMode {
    return this.modeInUse
  }

  /**
   * Resolves to the validated answer. Rejects with StructuredOutputError for an answer of the
   * wrong shape, with the SDK's APIError when the server fails (after the json_object retry if
   * json_schema was refused), and with the signal's reason when aborted.
   */
  async request<T>(request: StructuredRequest<T>): Promise<T> {
    if (this.modeInUse === 'json_schema') {
      try {
        return await this.once(request, 'json_schema')
      } catch (error) {
        if (!(error instanceof APIError) || !REFUSAL_STATUSES.has(error.status ?? 0)) throw error
      }
      const answer = await this.once(request, 'json_object')
      this.modeInUse = 'json_object'
      return answer
    }
    return this.once(request, 'json_object')
  }

  private async once<T>(request: StructuredRequest<T>, mode: StructuredMode): Promise<T> {
    const system =
      mode === 'json_schema'
        ? request.system
        : `${request.system}\n\nAnswer with one JSON object, and nothing else, that conforms to this JSON Schema:\n${JSON.stringify(z.toJSONSchema(request.schema))}`
    const completion = await this.client.chat.completions.create(
      {
        model: request.model,
        temperature: 0,
        response_format:
          mode === 'json_schema'
            ? zodResponseFormat(request.schema, request.name)
            : { type: 'json_object' },
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: request.user },
        ],
      },
      { signal: request.signal },
    )
    const choice = completion.choices[0]
    if (choice?.message.refusal) throw new StructuredOutputError('the model refused to answer')
    if (choice?.finish_reason === 'length')
      throw new StructuredOutputError('the answer was cut off at the output token limit')
    const text = choice?.message.content
    if (!text) throw new StructuredOutputError('the model returned no content')
    let json: unknown
    try {
      json = JSON.parse(stripFence(text))
    } catch {
      throw new StructuredOutputError('the model did not return valid JSON')
    }
    const parsed = request.schema.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
      throw new StructuredOutputError(
        `the model's JSON did not match the expected shape${where} (${issue?.message ?? 'invalid'})`,
      )
    }
    return parsed.data
  }
}

/** Some json_object servers wrap the object in a Markdown code fence; the fence is not JSON. */
function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text)
  return fenced?.[1] ?? text
}
