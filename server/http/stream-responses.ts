/**
 * OpenAPI success responses whose body is not JSON (a file, audio, CSV or a server-sent event
 * stream), for a route's `schema.response`, so the OpenAPI document and the generated client
 * know the media type. Fastify does not serialize these bodies: the routes send a stream or bytes.
 */
import { z } from 'zod'

// Typed `any` so that a route may send a stream or a Buffer; the document still says string.
const TEXT = z.any().meta({ type: 'string' })
const BINARY = z.any().meta({ type: 'string', format: 'binary' })

/**
 * A response of `mediaTypes` (text types as strings, others as binary), e.g.
 * `{ 200: streamResponse('The CSV file', ['text/csv']) }`.
 */
export function streamResponse(description: string, mediaTypes: readonly string[]) {
  return {
    description,
    content: Object.fromEntries(
      mediaTypes.map((type) => [type, { schema: type.startsWith('text/') ? TEXT : BINARY }]),
    ),
  }
}
