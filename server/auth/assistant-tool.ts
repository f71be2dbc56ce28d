/**
 * One capability offered to an MCP client as a tool: its input (a zod object shape, which the SDK
 * validates and publishes as JSON Schema), the scope a credential needs to call it, and the
 * service call it runs under the caller's principal. The list is composed in
 * server/assistant-tools.ts from the features' own services, so a tool does what its route does.
 */
import type { z } from 'zod'
import type { RequestPrincipal } from './principal'
import type { MethodScope } from './scopes'

/** A tool of the MCP server. `run` returns JSON-serialisable data or throws an AppError. */
export interface AssistantTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** snake_case, stable: clients and their users refer to tools by name. */
  name: string
  /** What the tool is for, for the assistant's model to choose it. */
  description: string
  /** `read` for a tool that changes nothing, `write` otherwise (as a route's scope). */
  scope: MethodScope
  input: Shape
  run(principal: RequestPrincipal, input: z.infer<z.ZodObject<Shape>>): Promise<unknown>
}

/** Declares a tool with its input type inferred from `input` (a plain object is not inferred). */
export function assistantTool<Shape extends z.ZodRawShape>(
  tool: AssistantTool<Shape>,
): AssistantTool {
  return tool as unknown as AssistantTool
}
