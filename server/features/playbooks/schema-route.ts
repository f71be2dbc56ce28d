/**
 * The published JSON Schema of a playbook document: `GET /api/public/schemas/playbook.json`,
 * outside /api/v1 and the OpenAPI document because no credential is asked for (it says nothing
 * of any organisation; docs/authorization.md). The same schema validates importPlaybook.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { FeatureContext } from '../../services'
import { PLAYBOOK_SCHEMA_PATH, playbookJsonSchema } from '../../playbooks/positions'

export const playbookSchemaRoute: FastifyPluginAsync<FeatureContext> = async (app) => {
  const body = JSON.stringify(playbookJsonSchema(), null, 2)
  app.get(PLAYBOOK_SCHEMA_PATH, { schema: { hide: true } }, async (_req, reply) =>
    reply
      .header('content-type', 'application/schema+json; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(body),
  )
}
