/**
 * A signal for work done on behalf of one request that is pointless once its client has gone.
 */
import type { FastifyReply } from 'fastify'

/**
 * An AbortSignal that aborts (reason: an Error "The client went away.") when `reply`'s connection
 * closes before the answer was fully sent, e.g. the visitor left while a recording was decoded.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new Error('The client went away.'))
  })
  return gone.signal
}
