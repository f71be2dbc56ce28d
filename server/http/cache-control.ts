/**
 * Private answers must not be kept by browsers or shared caches: tenant JSON and file downloads
 * under /api/v1, signed links' files under /api/blob-links and better-auth's session answers
 * under /api/auth are sent with
 * `Cache-Control: no-store` (RFC 9111 §5.2.2.5), so a shared computer's cache or a proxy never
 * holds a firm's documents after sign-out.
 */
import type { onSendHookHandler } from 'fastify'

const PRIVATE_PREFIXES = ['/api/v1/', '/api/auth/', '/api/blob-links']

/**
 * onSend hook setting `Cache-Control: no-store` on every answer under a private prefix; the
 * payload passes unchanged. A callback hook: it runs on every answer and need not cost two
 * promises (decision 0095).
 */
export const noStoreForPrivateAnswers: onSendHookHandler = (req, reply, payload, done) => {
  if (PRIVATE_PREFIXES.some((prefix) => req.url.startsWith(prefix))) {
    reply.header('cache-control', 'no-store')
  }
  done(null, payload)
}
