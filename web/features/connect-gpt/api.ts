/**
 * Connect GPT data access: the owner's switch for external assistants (query keyed
 * `['orgs', orgId, 'external-assistants']`), the assistants' OpenAPI file (its download URL, and
 * the file itself, read for its server and its list of endpoints) and the MCP endpoint's URL.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type ExternalAssistants = components['schemas']['ExternalAssistants']

/** The organisation's switch, and whether the signed-in member may flip it. */
export const externalAssistantsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'external-assistants'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/external-assistants', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** Turns external assistants on or off (owners only; the server refuses others with a 403). */
export function setExternalAssistants(orgId: string, enabled: boolean) {
  return api
    .PUT('/api/v1/orgs/{orgId}/external-assistants', {
      params: { path: { orgId } },
      body: { enabled },
    })
    .then(unwrap)
}

/** Same-origin URL of the assistants' OpenAPI file (a download; session cookie). */
export function assistantOpenApiUrl(orgId: string): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/connect-gpt/openapi.json`
}

/** The URL MCP clients connect to (Streamable HTTP). */
export function mcpUrl(origin: string): string {
  return `${origin}/mcp`
}

/** One operation of the assistants' OpenAPI file, as the endpoint list shows it. */
export interface AssistantEndpoint {
  method: string
  path: string
  operationId: string
  description: string
}

/** What the screen reads from the assistants' OpenAPI file. */
export interface AssistantApi {
  /** The server the file names (PUBLIC_URL). */
  server: string
  endpoints: AssistantEndpoint[]
}

interface OpenApiFile {
  servers?: { url: string }[]
  paths?: Record<string, Record<string, { operationId?: string; description?: string }>>
}

/** The file's server and operations, in the file's order. */
export function assistantApiOf(file: OpenApiFile): AssistantApi {
  return {
    server: file.servers?.[0]?.url ?? '',
    endpoints: Object.entries(file.paths ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? '',
        description: op.description ?? '',
      })),
    ),
  }
}

/** The assistants' OpenAPI file of `orgId`, read for the endpoint list. */
export const assistantApiQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'assistant-openapi'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/connect-gpt/openapi.json', {
          params: { path: { orgId } },
          signal,
        })
        .then(unwrap)
        .then((file) => assistantApiOf(file as OpenApiFile)),
  })
