/**
 * The assistants' OpenAPI file (issue 23): the part of Lexdesk's own OpenAPI 3.1 document (made
 * from the routes' zod schemas by @fastify/swagger) that an external assistant needs, cut out and
 * never written by hand, so it cannot drift from the routes. A custom GPT imports it as its
 * Actions; each operation keeps its operationId and gets a description under 300 characters
 * (the GPT builder's limit), the organisation's id is written into the paths (the file is one
 * organisation's), `servers` is PUBLIC_URL and every call carries a bearer credential.
 */

/** An OpenAPI document as @fastify/swagger produces it (only the parts read here are typed). */
export interface OpenApiDocument {
  openapi: string
  info: Record<string, unknown>
  paths: Record<string, Record<string, OpenApiOperation>>
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown }
  [key: string]: unknown
}

type OpenApiOperation = Record<string, unknown> & {
  operationId?: string
  parameters?: { in: string; name: string }[]
}

/**
 * The operations an assistant calls, by operationId, with the description it is given (what to
 * use it for, in under 300 characters). The spec's list: entities GET/POST, documents and their
 * records (analyses) GET, search (`semantic_search`, and the same by text), then
 * `list_recent_conversations` and `log_gpt_action`.
 */
export const ASSISTANT_OPERATIONS: Readonly<Record<string, string>> = {
  listEntities:
    "Lists the firm's entities (clients, matters, parties: typed records with JSON data). Filter with q (name or type contains), type, appId; page with limit and offset.",
  createEntity:
    'Creates an entity (name, type, optional JSON data and appId). Ask the user before creating anything; then report it with logGptAction.',
  listDocuments:
    "Lists the firm's documents newest first, with title, type and a short preview. Filter with q (title or text contains), type and appId; page with limit and offset.",
  getDocument:
    'Reads one document: its title, type and full extracted text. Quote from it with the character offsets you are given by search.',
  listAnalyses:
    "Lists a document's stored AI analyses (summary, clauses, risks), newest first, each finding citing its source passage by character span.",
  searchPassages:
    "Searches the firm's documents by meaning and words for a question in plain text. Each passage gives its document id, title and character span: cite them in answers.",
  semanticSearch:
    "The semantic_search procedure: passages nearest to an embedding (_emb, a JSON array as a string, of the server's embedder) in _app. Prefer searchPassages when you have text.",
  listRecentConversations:
    "The list_recent_conversations procedure: the organisation's latest conversations with Lexdesk's assistant (lim, default 10), each with its first question and message count.",
  logGptAction:
    "The log_gpt_action procedure: records in the firm's audit log what you did (action, e.g. drafted_reply; optional target_type and target_id). Call it after every change you make.",
}

/** Longest description the GPT builder accepts on an operation, in characters. */
export const MAX_DESCRIPTION_CHARS = 300

/** Name of the bearer scheme in `components.securitySchemes`. */
const BEARER = 'lexdeskKey'

/** Every `$ref` target (`#/components/schemas/X` → X) found anywhere in `value`. */
function schemaRefs(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) schemaRefs(item, found)
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const ref = key === '$ref' && typeof inner === 'string' ? inner : null
      const name = ref?.match(/^#\/components\/schemas\/(.+)$/)?.[1]
      if (name) found.add(name)
      else schemaRefs(inner, found)
    }
  }
  return found
}

/** The schemas `roots` reference, and those they reference in turn. */
function reachableSchemas(
  roots: unknown,
  schemas: Record<string, unknown>,
): Record<string, unknown> {
  const reached: Record<string, unknown> = {}
  const pending = [...schemaRefs(roots, new Set())]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (name in reached || !(name in schemas)) continue
    reached[name] = schemas[name]
    pending.push(...schemaRefs(schemas[name], new Set()))
  }
  return reached
}

/**
 * The assistants' document for organisation `orgId`, cut from `full` (the app's
 * `/api/openapi.json`). Throws an Error when an operation of ASSISTANT_OPERATIONS is missing from
 * `full` (a route renamed without this list), so the file never silently loses one.
 */
export function assistantOpenApi(
  full: OpenApiDocument,
  options: { orgId: string; publicUrl: string },
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {}
  const missing = new Set(Object.keys(ASSISTANT_OPERATIONS))
  for (const [path, methods] of Object.entries(full.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const description = ASSISTANT_OPERATIONS[operation.operationId ?? '']
      if (description === undefined || !operation.operationId) continue
      missing.delete(operation.operationId)
      const own = path.replace('{orgId}', encodeURIComponent(options.orgId))
      paths[own] = {
        ...paths[own],
        [method]: {
          ...operation,
          description,
          parameters: operation.parameters?.filter((p) => !(p.in === 'path' && p.name === 'orgId')),
        },
      }
    }
  }
  if (missing.size > 0) {
    throw new Error(`assistant operations missing from the API: ${[...missing].join(', ')}`)
  }
  return {
    openapi: full.openapi,
    info: {
      title: 'Lexdesk for assistants',
      version: String(full.info.version ?? '1.0.0'),
      description: `The operations an external assistant may call on organisation ${options.orgId} of Lexdesk. Authenticate with an API key or tenant token as a Bearer token.`,
    },
    servers: [{ url: options.publicUrl }],
    paths,
    components: {
      schemas: reachableSchemas(paths, full.components?.schemas ?? {}),
      securitySchemes: {
        [BEARER]: {
          type: 'http',
          scheme: 'bearer',
          description: 'A Lexdesk API key or tenant token of this organisation',
        },
      },
    },
    security: [{ [BEARER]: [] }],
  }
}
