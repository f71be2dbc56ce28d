/**
 * The routes of signed links (signed-links.ts) on the disk driver, outside /api/v1 because the
 * signature, not a session, is the credential (docs/authorization.md): GET (and HEAD) stream the
 * object with the safe file headers and Range support (send-blob.ts), always as an
 * attachment under the name the link was signed with (else its key's last segment); PUT streams the request body into the key. An altered, expired or other-method
 * link is a 403 problem; a link to a missing object a 404.
 */
import type { FastifyPluginAsync } from 'fastify'
import { AppError } from '../errors/app-error'
import { sendBlob } from './send-blob'
import type { BlobStore } from './blob-store'
import { SIGNED_LINK_PATH, type BlobLinkSigner } from './signed-links'

export const signedLinkRoutes: FastifyPluginAsync<{
  blobs: BlobStore
  signer: BlobLinkSigner
}> = async (app, { blobs, signer }) => {
  // The body of a PUT is the object, whatever its type: stream it, never parse it.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_req, _payload, done) => done(null))
  app.route({
    method: ['GET', 'PUT'],
    url: SIGNED_LINK_PATH,
    schema: { hide: true },
    async handler(req, reply) {
      const { key, fileName } = signer.verify(req.query as Record<string, unknown>, req.method)
      if (req.method === 'PUT') {
        const contentType = req.headers['content-type'] ?? 'application/octet-stream'
        const size = await blobs.putStream(key, req.raw, contentType)
        return reply.status(200).send({ key, size })
      }
      return sendBlob(req, reply, blobs, {
        key,
        fileName: fileName ?? key.split('/').at(-1) ?? 'download',
        missing: () => new AppError('file_not_found', 'There is no file at this link.'),
      })
    },
  })
}
