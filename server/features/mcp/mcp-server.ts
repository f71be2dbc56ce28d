/**
 * The MCP server of one request (stateless Streamable HTTP: a server per request, bound to the
 * caller's principal), offering `tools` through the official SDK's McpServer. A tool the caller's
 * credential lacks the scope of, or one whose service refuses (an AppError: not found, bad input),
 * answers a tool error (`isError`) carrying the problem's detail and code; any other failure is
 * logged and answered with a generic message, never its internals.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { FastifyBaseLogger } from 'fastify'
import type { RequestPrincipal } from '../../auth/principal'
import { AppError } from '../../errors/app-error'
import type { AssistantTool } from '../../auth/assistant-tool'

/** Name and version the server reports to clients in its `initialize` answer. */
const SERVER_INFO = { name: 'lexdesk', version: '1.0.0' }

function toolError(text: string) {
  return { isError: true, content: [{ type: 'text' as const, text }] }
}

/** An McpServer for `principal` with every tool of `tools`. */
export function mcpServerFor(
  tools: readonly AssistantTool[],
  principal: RequestPrincipal,
  log: FastifyBaseLogger,
): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "Lexdesk holds one law firm's documents, their analyses, entities and assistant conversations. Cite passages by document id and character span.",
  })
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input },
      async (input: Record<string, unknown>) => {
        if (!principal.scopes.includes(tool.scope)) {
          return toolError(
            `insufficient_scope: ${tool.name} needs a credential with the ${tool.scope} scope`,
          )
        }
        try {
          const result = await tool.run(principal, input as never)
          return { content: [{ type: 'text' as const, text: JSON.stringify(result, null, 2) }] }
        } catch (error) {
          if (error instanceof AppError) return toolError(`${error.code}: ${error.detail}`)
          log.error({ err: error, tool: tool.name }, 'MCP tool failed')
          return toolError(`internal_error: ${tool.name} failed; the server log has the cause`)
        }
      },
    )
  }
  return server
}
