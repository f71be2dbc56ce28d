/**
 * The realtime endpoint (issue 24, decision 0052): `GET /orgs/:orgId/realtime` upgraded to a
 * WebSocket streams the organisation's changes to the tables it subscribes to (protocol:
 * server/realtime/realtime-hub.ts). The upgrade passes the same guard as every route (session
 * cookie or Authorization credential, member role, read scope); with a cookie its Origin must be
 * PUBLIC_URL's (http/same-origin.ts). Without an upgrade the same path answers the tables that
 * can be subscribed to, so the route is in the OpenAPI document and the authorisation walk like
 * any other.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { CredentialLifetime } from '../../auth/credential-lifetime'
import { OrgParams } from '../../http/params'
import { RealtimeHub } from '../../realtime/realtime-hub'
import { REALTIME_TABLES } from '../../realtime/realtime-tables'
import type { AppServices } from '../../services'

const RealtimeInfo = z.object({
  tables: z.array(z.string()).describe('Tables (schema.table) a socket may subscribe to'),
})

declare module 'fastify' {
  interface FastifyRequest {
    /** The lifetime of an upgrading request's credential (set before the upgrade). */
    credentialLifetime?: CredentialLifetime
  }
}

export const realtimeRoutes: FastifyPluginAsyncZod<{
  services: AppServices
  lifetimeOf: (req: FastifyRequest) => Promise<CredentialLifetime>
}> = async (app, { services, lifetimeOf }) => {
  const hub = new RealtimeHub({
    db: services.db,
    changes: services.changes,
    notifier: services.notifier,
    log: app.log,
  })
  await hub.start()
  app.addHook('onClose', () => hub.close())

  app.route({
    method: 'GET',
    url: '/orgs/:orgId/realtime',
    schema: {
      operationId: 'openRealtime',
      tags: ['realtime'],
      description:
        'Open as a WebSocket (`Upgrade: websocket`) to receive the changes of the organisation\'s tables: send `{"type":"subscribe","table":"public.entities"}` (optionally with `appId`), receive `subscribed`, then a `change` message (table, op, appId, count, ids, and rows of small changes) after each committed change. With the session cookie the upgrade must come from this server\'s origin. The socket closes (4401) when the session ends or the credential expires or is revoked. Without an upgrade, answers the tables that can be subscribed to.',
      params: OrgParams,
      response: { 200: RealtimeInfo },
    },
    config: { minRole: 'member' },
    preHandler: async (req) => {
      if (req.ws) req.credentialLifetime = await lifetimeOf(req)
    },
    handler: async () => ({ tables: Object.keys(REALTIME_TABLES) }),
    wsHandler: (socket, req) => {
      const principal = principalOf(req)
      const lifetime = req.credentialLifetime ?? { sessionId: null, expiresAt: null }
      const connection = hub.attach(socket, {
        orgId: principal.orgId,
        appId: principal.appId,
        credentialId: lifetime.sessionId === null ? principal.credentialId : null,
        ...lifetime,
      })
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (!isBinary) connection.receive(data.toString('utf8'))
      })
      socket.on('close', () => connection.detach())
    },
  })
}
