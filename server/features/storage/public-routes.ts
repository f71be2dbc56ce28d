/**
 * The public address of objects in public buckets (public-object.ts): `GET`/`HEAD
 * /api/public/storage/<orgId>/<bucket>/<name…>`, outside /api/v1 and the OpenAPI document because
 * no credential is asked for (docs/authorization.md). Served like every download (blob/send-blob.ts:
 * attachment, nosniff, sandbox CSP, ranges); anything not public is the same 404.
 */
import type { FastifyPluginAsync } from 'fastify'
import { sendBlob } from '../../blob/send-blob'
import { getPublicObjectFile, notPublic, PUBLIC_OBJECT_PATH } from './public-object'
import type { FeatureContext } from '../../services'

export const publicObjectRoutes: FastifyPluginAsync<FeatureContext> = async (
  app,
  { services: { db, blobs } },
) => {
  app.get<{ Params: { orgId: string; bucket: string; '*': string } }>(
    `${PUBLIC_OBJECT_PATH}/:orgId/:bucket/*`,
    { schema: { hide: true } },
    async (req, reply) => {
      const { orgId, bucket, '*': name } = req.params
      const file = await getPublicObjectFile(db, orgId, bucket, name)
      // A public file may change under the same address: caches ask again before reusing it.
      reply.header('cache-control', 'no-cache')
      return sendBlob(req, reply, blobs, { ...file, missing: notPublic })
    },
  )
}
