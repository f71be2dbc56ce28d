/**
 * The MCP endpoint (issue 23): `POST /mcp`, the Model Context Protocol's Streamable HTTP transport
 * (official SDK, stateless: each request gets its own server bound to its caller, so any server
 * process can answer any request and nothing is kept between them). Authenticated only by the
 * `Authorization` header's credential (an API key or tenant token: server/auth/principal.ts),
 * never by the session cookie, so a page a member visits cannot drive it; no credential or a
 * refused one is a 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3). The caller acts
 * in its credential's organisation, recorded in the audit log as actor type `mcp`, and only once
 * an owner has turned external assistants on (else 403 `external_assistants_disabled`). Each
 * POST spends one request of the caller's read or write budget per minute, as on `/api/v1`
 * (its own counters; past it 429 `rate_limited` with `Retry-After`).
 * `GET` and `DELETE /mcp` (server-sent streams and sessions, which a stateless server has none
 * of) answer 405 with `Allow: POST`, as the transport specifies.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { credentialPrincipal, type RequestPrincipal } from '../../auth/principal'
import type { CredentialRegistry } from '../../auth/credential-registry'
import { scopeBudgets } from '../../auth/api-rate-limits'
import type { MethodScope } from '../../auth/scopes'
import type { ApiRateLimits } from '../../config'
import { assertExternalAssistants } from '../../auth/external-assistants'
import type { Db } from '../../db/client'
import { AppError } from '../../errors/app-error'
import type { AssistantTool } from './assistant-tool'
import { mcpServerFor } from './mcp-server'

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp'

/**
 * The scope a JSON-RPC message (or batch) to /mcp spends from the caller's request budget: `write`
 * when it calls a tool of the write scope, else `read`.
 */
function budgetScope(body: unknown, tools: readonly AssistantTool[]): MethodScope {
  const messages = (Array.isArray(body) ? body : [body]) as {
    method?: unknown
    params?: { name?: unknown }
  }[]
  const writes = messages.some(
    (m) =>
      m?.method === 'tools/call' &&
      tools.some((tool) => tool.name === m.params?.name && tool.scope === 'write'),
  )
  return writes ? 'write' : 'read'
}

export const mcpRoutes: FastifyPluginAsync<{
  db: Db
  credentials: CredentialRegistry
  tools: readonly AssistantTool[]
  /** The per-credential budgets of `/api/v1` (API_READS_PER_MINUTE, API_WRITES_PER_MINUTE). */
  rateLimits: ApiRateLimits
}> = async (app, { db, credentials, tools, rateLimits }) => {
  const chargeBudget = scopeBudgets(app, rateLimits)
  /** The caller's principal as an MCP client (actor type `mcp`), or a 401 / 403 problem. */
  const callerOf = async (req: FastifyRequest): Promise<RequestPrincipal> => {
    const header = req.headers.authorization
    if (header === undefined) {
      throw new AppError(
        'unauthenticated',
        'The MCP endpoint needs an API key or tenant token as a Bearer token',
        { 'www-authenticate': 'Bearer realm="lexdesk"' },
      )
    }
    const principal = { ...(await credentialPrincipal(credentials, header)), actorType: 'mcp' }
    await assertExternalAssistants(db, principal)
    return principal as RequestPrincipal
  }

  app.post(MCP_PATH, { schema: { hide: true } }, async (req, reply) => {
    const principal = await callerOf(req)
    req.principal = principal
    await chargeBudget(req, budgetScope(req.body, tools))
    const server = mcpServerFor(tools, principal, req.log)
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    reply.hijack()
    reply.raw.setHeader('cache-control', 'no-store')
    await transport.handleRequest(req.raw, reply.raw, req.body)
  })

  const notStreaming = async () => {
    throw new AppError('method_not_allowed', 'This MCP server is stateless: send POST requests', {
      allow: 'POST',
    })
  }
  app.get(MCP_PATH, { schema: { hide: true } }, notStreaming)
  app.delete(MCP_PATH, { schema: { hide: true } }, notStreaming)
}
