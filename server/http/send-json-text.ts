/**
 * Answers a JSON text built elsewhere (by the database, say) as the body, as it is: Fastify
 * neither parses nor serializes a string sent with a JSON content type. The route's declared
 * response schema is then not checked at run time, so the route's tests check the body against
 * it (decision 0093). For a hot route only: every other route's answer goes through its schema.
 */
import type { FastifyReply } from 'fastify'

/** Sends `json`, a JSON text in the route's declared 200 shape, with reply's status. */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json)
}
