/**
 * The MCP endpoint (issue 23): `POST /mcp`, the Model Context Protocol's Streamable HTTP transport
 * (official SDK, stateless: each request gets its own server bound to its caller, so any server
 * process can answer any request and nothing is kept between them). Authenticated only by the
 * `Authorization` header's credential (an API key or tenant token: server/auth/principal.ts),
 * never by the session cookie, so a page a member visits cannot drive it; no credential or a
 * refused one is a 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3). The caller acts
 * in its credential's organisation, recorded in the audit log as actor type `mcp`, and only once
 * an owner has turned external assistants on (else 403 `external_assistants_disabled`).
 * Budgets (issue 41, decision 0105): every JSON-RPC request spends one of the caller's reads or
 * writes per minute, the budgets of `/api/v1` (a tool call of the write scope a write, any other
 * request a read), so a batch costs what its calls would cost one by one over REST. A single
 * message over budget is a 429 `rate_limited` problem with `Retry-After`, as on `/api/v1`; in a
 * batch, each request is charged when its turn comes and one over budget is answered with the
 * JSON-RPC error `MCP_RATE_LIMITED` (budgeted-transport.ts) while the others keep theirs; a batch
 * of notifications only costs one read. A batch holds at most MCP_MAX_BATCH messages (else 413
 * `mcp_batch_too_large`, nothing run), and its requests run one after the other, so one POST
 * never has more than one tool call under way.
 * `GET` and `DELETE /mcp` (server-sent streams and sessions, which a stateless server has none
 * of) answer 405 with `Allow: POST`, as the transport specifies.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { credentialPrincipal, type RequestPrincipal } from '../../auth/principal'
import { scopeBudgets } from '../../auth/api-rate-limits'
import type { MethodScope } from '../../auth/scopes'
import { DEFAULT_API_RATE_LIMITS } from '../../config'
import { assertExternalAssistants } from '../../auth/external-assistants'
import { AppError } from '../../errors/app-error'
import type { AssistantTool } from '../../auth/assistant-tool'
import { budgetedTransport, type ChargeMessage } from './budgeted-transport'
import { mcpServerFor } from './mcp-server'
import type { FeatureContext } from '../../services'

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp'

/**
 * The scope one JSON-RPC message spends from the caller's budget: `write` when it calls a tool of
 * the write scope, else `read` (an unknown tool, a list, initialize, a notification).
 */
function messageScope(message: unknown, tools: readonly AssistantTool[]): MethodScope {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null
  const called =
    m?.method === 'tools/call' ? tools.find((tool) => tool.name === m.params?.name) : undefined
  return called?.scope ?? 'read'
}

export const mcpRoutes: FastifyPluginAsync<FeatureContext> = async (
  app,
  {
    services: { db },
    credentials: { registry: credentials },
    assistantTools: tools,
    // The per-credential budgets of `/api/v1` (API_READS_PER_MINUTE, API_WRITES_PER_MINUTE).
    config: { apiRateLimits: rateLimits },
  },
) => {
  const chargeBudget = scopeBudgets(app, rateLimits)
  const maxBatch = rateLimits.mcpMaxBatch ?? DEFAULT_API_RATE_LIMITS.mcpMaxBatch
  /** Each request of a batch, charged in its turn: its 429 as the seconds to wait. */
  const chargeEach =
    (req: FastifyRequest): ChargeMessage =>
    async (message: JSONRPCMessage) => {
      if (!isJSONRPCRequest(message)) return null
      try {
        await chargeBudget(req, messageScope(message, tools))
        return null
      } catch (error) {
        if (error instanceof AppError && error.code === 'rate_limited') {
          return Number(error.headers['retry-after'])
        }
        // Answered as a JSON-RPC internal error (budgeted-transport.ts); the cause is kept here.
        req.log.error({ err: error }, 'MCP budget check failed')
        throw error
      }
    }
  /**
   * Charges `req`'s body before the transport sees it: a single message or a batch without
   * requests now (429 problem when over budget); a batch's requests in their turn (the returned
   * charge). Throws 413 `mcp_batch_too_large` for a batch over MCP_MAX_BATCH.
   */
  const chargeRequest = async (req: FastifyRequest): Promise<ChargeMessage> => {
    const body: unknown = req.body
    if (!Array.isArray(body)) {
      await chargeBudget(req, messageScope(body, tools))
      return async () => null
    }
    if (body.length > maxBatch) {
      throw new AppError(
        'mcp_batch_too_large',
        `A JSON-RPC batch to /mcp holds at most ${maxBatch} messages; this one has ${body.length}`,
      )
    }
    if (body.some(isJSONRPCRequest)) return chargeEach(req)
    await chargeBudget(req, 'read')
    return async () => null
  }
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
    const charge = await chargeRequest(req)
    const server = mcpServerFor(tools, principal, req.log)
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(budgetedTransport(transport, charge))
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
