/**
 * The MCP endpoint (issue 23): `POST /mcp`, the Model Context Protocol's Streamable HTTP transport
 * (official SDK, stateless: each request gets its own server bound to its caller, so any server
 * process can answer any request and nothing is kept between them). Authenticated only by the
 * `Authorization` header's credential (an API key or tenant token: server/auth/principal.ts),
 * never by the session cookie, so a page a member visits cannot drive it; no credential or a
 * refused one is a 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3). The caller acts
 * in its credential's organisation, recorded in the audit log as actor type `mcp`, and only once
 * an owner has turned external assistants on (else 403 `external_assistants_disabled`).
 * `GET` and `DELETE /mcp` (server-sent streams and sessions, which a stateless server has none
 * of) answer 405 with `Allow: POST`, as the transport specifies.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { credentialPrincipal, type RequestPrincipal } from '../../auth/principal'
import type { CredentialRegistry } from '../../auth/credential-registry'
import { assertExternalAssistants } from '../../auth/external-assistants'
import type { Db } from '../../db/client'
import { AppError } from '../../errors/app-error'
import type { AssistantTool } from './assistant-tool'
import { mcpServerFor } from './mcp-server'

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp'

export const mcpRoutes: FastifyPluginAsync<{
  db: Db
  credentials: CredentialRegistry
  tools: readonly AssistantTool[]
}> = async (app, { db, credentials, tools }) => {
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
