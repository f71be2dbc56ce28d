/**
 * The realtime endpoint (issue 24, decision 0052): `GET /orgs/:orgId/realtime` upgraded to a
 * WebSocket streams the organisation's changes to the tables it subscribes to, and the state of
 * the jobs it follows (issue 42, decision 0125: the one live channel; protocol:
 * server/realtime/realtime-hub.ts, messages: server/realtime/realtime-messages.ts). The upgrade passes the same guard as every route (session
 * cookie or Authorization credential, member role, read scope); with a cookie its Origin must be
 * PUBLIC_URL's (http/same-origin.ts). Without an upgrade the same path answers the tables that
 * can be subscribed to, so the route is in the OpenAPI document and the authorisation walk like
 * any other.
 *
 * One person holds at most `socketsPerUser` sockets at once on this instance, over all their
 * organisations and credentials (their session, their API keys, their tenant tokens); a
 * credential acting for no person is counted on its own. Past it the upgrade is refused with a
 * 429 problem (issue 41: one member held 1,036), counted with the event streams' tally
 * (http/open-counts.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf, type RequestPrincipal } from '../../auth/principal'
import { credentialLifetime, type CredentialLifetime } from '../../auth/credential-lifetime'
import { AppError } from '../../errors/app-error'
import { OpenCounts } from '../../http/open-counts'
import { OrgParams } from '../../http/params'
import { problemResponse } from '../../http/problem-responses'
import { RealtimeHub } from '../../realtime/realtime-hub'
import { REALTIME_TABLES } from '../../realtime/realtime-tables'
import type { FeatureContext } from '../../services'
import { readFollowedJobs } from './read-followed-jobs'
import { checkServerMessage } from './realtime-server-message'

/** Seconds a refused client is told to wait: a closed tab gives its place back at once. */
const RETRY_AFTER_S = 10

const RealtimeInfo = z.object({
  tables: z.array(z.string()).describe('Tables (schema.table) a socket may subscribe to'),
})

declare module 'fastify' {
  interface FastifyRequest {
    /** The lifetime of an upgrading request's credential (set before the upgrade). */
    credentialLifetime?: CredentialLifetime
    /** Gives back the upgrading request's place under the socket cap (set before the upgrade). */
    releaseSocket?: () => void
  }
}

/** Whom a socket is counted against: its person, else its credential. */
function holderOf(principal: RequestPrincipal): string {
  if (principal.userId !== null) return `user:${principal.userId}`
  return `credential:${principal.credentialId ?? `${principal.orgId}:${principal.actorType}`}`
}

export const realtimeRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services, credentials: { auth, registry }, config },
) => {
  const lifetimeOf = credentialLifetime({ auth, credentials: registry })
  // Sockets one person may hold open at once (REALTIME_SOCKETS_PER_USER).
  const socketsPerUser = config.realtimeSocketsPerUser
  const hub = new RealtimeHub({
    db: services.db,
    changes: services.changes,
    notifier: services.notifier,
    log: app.log,
    readJobs: readFollowedJobs(services.db),
    // Every message checked against the typed map in development and tests; not worth its cost
    // per progress message in production, where the same code sends the same shapes. Read from
    // the parsed configuration (NODE_ENV, server/config.ts), as every other setting is.
    ...(config.nodeEnv === 'production' ? {} : { check: checkServerMessage }),
  })
  await hub.start()
  app.addHook('onClose', () => hub.close())
  const open = new OpenCounts()

  app.route({
    method: 'GET',
    url: '/orgs/:orgId/realtime',
    schema: {
      operationId: 'openRealtime',
      tags: ['realtime'],
      description: `Open as a WebSocket (\`Upgrade: websocket\`; with the session cookie, from this server's origin) for the organisation's table changes: send \`{"type":"subscribe","table":"public.entities"}\` (optionally \`appId\`), receive \`subscribed\`, then a \`change\` (table, op, appId, count, ids, rows of small changes) per committed change; send \`{"type":"follow","jobId":…}\` to receive a \`job\` message (the job as getJob answers it) now and after each change until it ends. Messages: the RealtimeClientMessage and RealtimeServerMessage schemas. Closes with 4401 when the session or credential ends, expires or is revoked, 4403 when its person is no longer a member, 1008 past a burst of messages or a few a second: do not reconnect then. At most ${socketsPerUser} sockets a person (REALTIME_SOCKETS_PER_USER), past it 429. Without an upgrade, answers the tables that can be subscribed to.`,
      params: OrgParams,
      response: {
        200: RealtimeInfo,
        429: problemResponse(
          'Too many WebSockets open (code too_many_sockets): the person already holds REALTIME_SOCKETS_PER_USER; Retry-After gives seconds to wait',
        ),
      },
    },
    config: { minRole: 'member' },
    preHandler: async (req, reply) => {
      if (!req.ws) return
      req.credentialLifetime = await lifetimeOf(req)
      const release = open.take(holderOf(principalOf(req)), socketsPerUser)
      if (!release) {
        throw new AppError(
          'too_many_sockets',
          `Too many live connections open: at most ${socketsPerUser} per person. Close another Lexdesk tab and try again in ${RETRY_AFTER_S} seconds.`,
          { 'retry-after': String(RETRY_AFTER_S) },
        )
      }
      req.releaseSocket = release
      // An upgrade that never reaches the handler (the client gone meanwhile) gives it back too.
      reply.raw.once('close', release)
    },
    handler: async () => ({ tables: Object.keys(REALTIME_TABLES) }),
    wsHandler: (socket, req) => {
      const principal = principalOf(req)
      const lifetime = req.credentialLifetime ?? { sessionId: null, expiresAt: null }
      const release = req.releaseSocket
      const connection = hub.attach(socket, {
        orgId: principal.orgId,
        appId: principal.appId,
        userId: principal.userId,
        credentialId: lifetime.sessionId === null ? principal.credentialId : null,
        ...lifetime,
      })
      socket.on('message', (data: Buffer, isBinary: boolean) =>
        connection.receive(isBinary ? null : data.toString('utf8')),
      )
      socket.on('close', () => {
        connection.detach()
        release?.()
      })
    },
  })
}
