/**
 * buildApp(deps): the Fastify application with every plugin and feature route, never listening
 * (main.ts listens; tests call `app.inject`). Errors leave as RFC 9457 problem+json; the OpenAPI
 * 3.1 document is generated from the routes' zod schemas.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { REPOSITORY_ROOT } from './repository-root'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import websocket from '@fastify/websocket'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import {
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { AppResources, AppServices } from './services'
import { orgBlobPrefix } from './blob/blob-keys'
import { createBlobLinkSigner } from './blob/signed-links'
import { signedLinkRoutes } from './http/signed-link-routes'
import { createAuth } from './auth/auth'
import { DEFAULT_MAX_ORGANIZATIONS_PER_USER } from './auth/organization-limit'
import { authRoutes, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './auth/auth-routes'
import { declareRouteRoles, openApiTransform } from './auth/route-roles'
import { securitySchemes } from './auth/openapi-security'
import { getCookies } from 'better-auth/cookies'
import { registerPrincipalCache } from './auth/principal-cache'
import { credentialKey } from './auth/credential-key'
import { startRevocationRelay, type RevocationRelay } from './auth/revocation-relay'
import { createCredentialRegistry, type CredentialVerifier } from './auth/credential-registry'
import { rateLimitPluginOptions } from './auth/api-rate-limits'
import { limitUnknownCredentials } from './auth/limit-unknown-credentials'
import { tenantTokenJwt } from './auth/tenant-token-jwt'
import { createTenantTokenVerifier } from './auth/tenant-token-verifier'
import { createLineageCheck } from './auth/lineage-check'
import { DEFAULT_API_RATE_LIMITS, type ApiRateLimits } from './config'
import { problemFor } from './http/problem'
import { sameOriginWrites } from './http/same-origin'
import { docsCspTransform, securityHeaderList, securityHeaders } from './http/security-headers'
import { wrappedServerFactory } from './http/wrapped-server-factory'
import { frameworkErrorHandler } from './http/framework-errors'
import { clientErrorHandler } from './http/client-error'
import { recordRouteMethods } from './http/route-methods'
import { notFoundHandler } from './http/not-found'
import { noStoreForPrivateAnswers } from './http/cache-control'
import { healthRoutes } from './health/health-routes'
import { Lifecycle } from './ops/lifecycle'
import { createMetrics } from './ops/metrics'
import { currentLogContext, runWithLogContext } from './ops/log-context'
import { registerMetricsRoute } from './ops/metrics-route'
import { documentRoutes } from './features/documents/routes'
import { MAX_UPLOAD_BYTES } from './features/documents/schemas'
import { analysisRoutes } from './features/analysis/routes'
import { appRoutes } from './features/apps/routes'
import { jobRoutes } from './features/jobs/routes'
import { entityRoutes } from './features/entities/routes'
import { eventRoutes } from './features/events/routes'
import { analyticsRoutes } from './features/analytics/routes'
import { voiceRoutes } from './features/voice/routes'
import { storageRoutes } from './features/storage/routes'
import { publicObjectRoutes } from './features/storage/public-routes'
import { demoRoutes, DEFAULT_DEMO_LIMITS, type DemoLimits } from './features/demo/routes'
import { vectorRoutes } from './features/vector/routes'
import { assistantRoutes } from './features/assistant/routes'
import { auditRoutes } from './features/audit/routes'
import { sqlRoutes } from './features/sql/routes'
import { SqlSandboxes } from './features/sql/sql-sandboxes'
import { teamRoutes } from './features/team/routes'
import { tenantRoutes } from './features/tenants/routes'
import { apiKeyRoutes } from './features/api-keys/routes'
import { createApiKeyVerifier } from './features/api-keys/api-key-verifier'
import { connectGptRoutes } from './features/connect-gpt/routes'
import { mcpRoutes } from './features/mcp/routes'
import { assistantTools } from './assistant-tools'
import { realtimeRoutes } from './features/realtime/routes'
import { credentialLifetime } from './auth/credential-lifetime'
import { tenantTokenRoutes } from './features/security/tenant-token-routes'
import { JobRunner, type JobRunnerOptions } from './jobs/job-runner'
import { createNotifier } from './realtime/notifier'
import { databaseRateLimitStore } from './http/database-rate-limit-store'
import { ChangeFeed } from './realtime/change-feed'
import { JOB_CATALOGUE, type AppJobCatalogue } from './job-catalogue'
import { jobHandlers } from './job-handlers'
import { EventStreams, type EventStreamLimits } from './http/event-streams'

export interface AppDeps {
  /** Database, files, mail, worker pool and engines; the caller closes them after the app. */
  resources: AppResources
  /** Limits on text extraction; defaults: 2,000 PDF pages, 60 s. */
  extraction?: AppServices['limits']['extraction']
  /** The longest recording accepted, in minutes; default 180 (MAX_RECORDING_MINUTES). */
  maxRecordingMinutes?: number
  /** Bytes an organisation may keep in its buckets; default 10 GiB (STORAGE_QUOTA_BYTES). */
  storageQuotaBytes?: number
  /** Objects an organisation may keep in its buckets; default 100,000 (STORAGE_QUOTA_OBJECTS). */
  storageQuotaObjects?: number
  /** Largest organisation archive imported; default 20 GiB (IMPORT_MAX_BYTES). */
  importMaxBytes?: number
  /** Organisations one person may own; default 10 (MAX_ORGANIZATIONS_PER_USER, decision 0109). */
  maxOrganizationsPerUser?: number
  /** Tesseract languages of OCR (OCR_LANGUAGES); default 'eng'. */
  ocrLanguages?: string
  /** Background job runner settings (concurrency, per-organisation cap, polling, lease). */
  jobs?: Omit<JobRunnerOptions, 'db' | 'log' | 'catalogue' | 'changes'>
  /** Caps of open event streams per user and organisation (defaults: http/event-streams.ts). */
  streams?: Partial<EventStreamLimits>
  /**
   * Realtime WebSockets one person (or a credential acting for no person) may hold open at once
   * on this instance (REALTIME_SOCKETS_PER_USER); default features/realtime/routes.ts's.
   */
  realtimeSocketsPerUser?: number
  /** Server secret (≥ 32 chars) for sessions and (through a derived key) tenant tokens. */
  secret: string
  /** Public origin, e.g. http://localhost:3000. */
  publicUrl: string
  /** Application log (see http/logger.ts createLogger); none when absent. */
  logger?: FastifyBaseLogger
  /** Whether X-Forwarded-For is believed (set behind a reverse proxy), see Fastify trustProxy. */
  trustProxy?: boolean | string
  signInLimits?: SignInLimits
  /**
   * Requests per principal per minute on `/api/v1`, by scope (default 600 reads, 120 writes), and
   * per API key (default 600).
   */
  apiRateLimits?: ApiRateLimits
  /**
   * Verifiers of other credentials an `Authorization` header may carry
   * (auth/credential-registry.ts), besides the API keys' and tenant tokens' own (`ldk_…`, `ldt_…`,
   * decisions 0047 and 0048), which every app registers.
   */
  credentialVerifiers?: readonly CredentialVerifier[]
  /** Rate limit of the public demo's endpoints per client (default 30 a minute). */
  demoLimits?: DemoLimits
  /** Directory of the built SPA; served with history fallback when it exists. */
  webRoot?: string
  /** The process's graceful stop (server/ops/lifecycle.ts); a private one when absent. */
  lifecycle?: Lifecycle
  /** Bearer token of `GET /metrics` (METRICS_TOKEN); no such route when absent. */
  metricsToken?: string
  /**
   * On embedded PGlite, the file keeping the SQL runner sandboxes' empty database across restarts,
   * made when the app is ready so no query waits for its initdb (decision 0091); when absent it
   * is made at the first query and kept in memory.
   */
  sqlSandboxTemplate?: string
}

const defaultWebRoot = path.join(REPOSITORY_ROOT, 'dist', 'web')

/** Builds the application. Call `app.ready()` (or inject) before use and `app.close()` after. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Made before the app: its gate runs in the server's request listener, before Fastify.
  const streams = new EventStreams(
    deps.streams ?? {},
    credentialKey,
    securityHeaderList(deps.publicUrl),
  )
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    serverFactory: wrappedServerFactory((handler) => streams.requestListener(handler)),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && /^[\w-]{1,100}$/.test(incoming)
        ? incoming
        : randomUUID()
    },
    trustProxy: deps.trustProxy ?? false,
    frameworkErrors: frameworkErrorHandler(deps.publicUrl),
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>()
  const allowedMethods = recordRouteMethods(app)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id)
    done(null, payload)
  })
  app.addHook('onSend', noStoreForPrivateAnswers)
  // The request's id follows its work, and into the jobs it queues (ops/log-context.ts); set
  // again after the body is read, whose stream events run outside the request's context.
  const withRequestContext = (req: FastifyRequest, _reply: unknown, done: () => void) =>
    currentLogContext()?.reqId === req.id ? done() : runWithLogContext({ reqId: req.id }, done)
  app.addHook('onRequest', withRequestContext)
  app.addHook('preValidation', withRequestContext)
  const metrics = createMetrics({
    workerPool: () => deps.resources.pool.stats(),
    dbConnections: deps.resources.database.connections,
  })
  // The route's pattern, never req.url: ids and query values would make a series each.
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeRequest(
      req.method,
      req.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    )
    done()
  })
  if (deps.metricsToken) registerMetricsRoute(app, metrics, deps.metricsToken)
  app.addHook('onRequest', sameOriginWrites(deps.publicUrl))

  app.setErrorHandler((error, req, reply) => {
    const { problem: body, headers } = problemFor(error, {
      bodyLimit: req.routeOptions.bodyLimit,
    })
    // The err serializer (http/logger.ts) logs the cause chain without bound parameters.
    if (body.status >= 500) req.log.error({ err: error }, 'request failed')
    return reply
      .status(body.status)
      .headers(headers)
      .type('application/problem+json')
      .send(JSON.stringify({ ...body, instance: req.url.split('?')[0] }))
  })

  app.addHook('onRequest', securityHeaders(deps.publicUrl))
  // Several processes may share a PostgreSQL: their counters must be one (decision 0064).
  await app.register(
    rateLimit,
    rateLimitPluginOptions(
      deps.resources.database.kind === 'postgres'
        ? databaseRateLimitStore(deps.resources.database.db)
        : undefined,
    ),
  )
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 } })
  // Client messages are small subscriptions: 64 KiB is far more than one needs.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } })

  const maxOrganizationsPerUser = deps.maxOrganizationsPerUser ?? DEFAULT_MAX_ORGANIZATIONS_PER_USER
  // Before the document: its session cookie scheme names better-auth's cookie.
  const auth = createAuth({
    db: deps.resources.database.db,
    mailer: deps.resources.mailer,
    secret: deps.secret,
    publicUrl: deps.publicUrl,
    log: app.log,
    onOrganizationDeleted: (orgId) => deps.resources.blobs.deletePrefix(orgBlobPrefix(orgId)),
    maxOrganizationsPerUser,
  })
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lexdesk API',
        version: '1.0.0',
        description: 'Tenant data of a Lexdesk organisation. Errors are RFC 9457 problem+json.',
      },
      tags: [
        { name: 'documents', description: 'Document library' },
        { name: 'analysis', description: 'AI analysis of documents, with cited passages' },
        { name: 'apps', description: 'Apps inside an organisation' },
        { name: 'jobs', description: 'Background jobs: progress, cancel (follow: realtime)' },
        { name: 'entities', description: 'Typed records with JSON data; CSV export and import' },
        { name: 'events', description: "The organisation's event log" },
        { name: 'search', description: 'Search by meaning over document passages' },
        { name: 'assistant', description: 'Questions answered with cited passages; conversations' },
        { name: 'team', description: 'Members, invitations and roles' },
        { name: 'system', description: 'Health' },
        { name: 'security', description: 'API keys: credentials for programs' },
        { name: 'voice', description: 'Voice recordings, transcripts and reading aloud' },
        {
          name: 'connect-gpt',
          description:
            "External assistants: the owner's switch, their procedures, their OpenAPI file",
        },
        { name: 'realtime', description: "Live changes of the organisation's tables (WebSocket)" },
        { name: 'storage', description: 'Buckets of files: upload, download, signed links' },
      ],
      // The session cookie is better-auth's own (prefixed behind HTTPS).
      components: { securitySchemes: securitySchemes(getCookies(auth.options).sessionToken.name) },
    },
    transform: openApiTransform,
    transformObject: jsonSchemaTransformObject,
  })
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The x-min-role and x-required-scope of each operation, for a reader deciding what to sign with.
    uiConfig: { showExtensions: true },
    staticCSP: true,
    transformStaticCSP: docsCspTransform(deps.publicUrl),
  })
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger())

  const { resources } = deps
  const db = resources.database.db
  const notifier = createNotifier(resources.database, app.log)
  // Set once the relay listens (below); revocations before then have no other process to tell.
  let relay: RevocationRelay | undefined
  const principals = registerPrincipalCache(app, {
    onRevoke: () => relay?.announce({ kind: 'principals' }),
  })
  // Whether the credentials a key or token was created with are all still valid (decision
  // 0104): forgotten on every revocation, since the revoked one may be anyone's ancestor.
  const lineage = createLineageCheck(db)
  const apiKeys = createApiKeyVerifier({ db, principals, lineage })
  const tokenJwt = tenantTokenJwt(deps.secret)
  const tokenVerifier = createTenantTokenVerifier({ db, jwt: tokenJwt, principals, lineage })
  // Refused credentials are cached and limited per client address (decision 0105).
  const credentials = limitUnknownCredentials(
    app,
    createCredentialRegistry([
      apiKeys.verifier,
      tokenVerifier,
      ...(deps.credentialVerifiers ?? []),
    ]),
    deps.apiRateLimits?.failedCredentialsPerMinute ??
      DEFAULT_API_RATE_LIMITS.failedCredentialsPerMinute,
  )
  await app.register(authRoutes, {
    auth,
    origin: deps.publicUrl,
    limits: deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
  })

  const changes = new ChangeFeed(notifier, app.log)
  await changes.start()
  // PGlite cannot interrupt a statement: the SQL runner's queries run in sandboxes (decision 0091).
  const sandboxes =
    resources.database.kind === 'pglite'
      ? new SqlSandboxes(db, { templateFile: deps.sqlSandboxTemplate })
      : undefined
  if (sandboxes && deps.sqlSandboxTemplate) {
    app.addHook('onReady', async () => {
      sandboxes.prepare().catch((error: unknown) => {
        app.log.warn({ err: error }, 'the SQL runner could not prepare its sandbox database')
      })
    })
  }
  // Other processes exist only on PostgreSQL (PGlite admits one).
  if (resources.database.kind === 'postgres') {
    relay = await startRevocationRelay(
      notifier,
      {
        forgetPrincipals: () => principals.forgetAll(),
        forgetApiKey: (digest) => {
          apiKeys.forget(digest)
          lineage.forgetAll()
        },
        forgetTenantToken: (jti) => {
          tokenVerifier.forget(jti)
          lineage.forgetAll()
        },
      },
      app.log,
    )
  }
  app.addHook('onClose', async () => {
    await relay?.close()
    await changes.close()
    await notifier.close()
    await sandboxes?.close()
  })

  const { database: _database, mailer: _mailer, ...shared } = resources
  const services: AppServices = {
    ...shared,
    db,
    jobs: new JobRunner<AppJobCatalogue>({
      db,
      log: app.log,
      catalogue: JOB_CATALOGUE,
      changes,
      onRunEnded: (kind, outcome, seconds) => metrics.observeJob(kind, outcome, seconds),
      ...deps.jobs,
    }),
    notifier,
    changes,
    streams,
    limits: {
      extraction: deps.extraction ?? { maxPdfPages: 2000, timeoutSeconds: 60 },
      maxRecordingMinutes: deps.maxRecordingMinutes ?? 180,
      storageQuotaBytes: deps.storageQuotaBytes ?? 10 * 1024 ** 3,
      storageQuotaObjects: deps.storageQuotaObjects ?? 100_000,
      importMaxBytes: deps.importMaxBytes ?? 20 * 1024 ** 3,
      maxOrganizationsPerUser,
      ocrLanguages: deps.ocrLanguages ?? 'eng',
    },
  }
  // Every job kind is bound to its handler here, at composition, never inside a route plugin.
  services.jobs.bind(jobHandlers(services))
  const lifecycle = deps.lifecycle ?? new Lifecycle()
  lifecycle.onDrain(() => services.jobs.drain())
  app.addHook('onReady', () => services.jobs.start())
  // What is left of a graceful stop's budget, less 2 s to record the handed-back jobs and close.
  app.addHook('onClose', () => services.jobs.stop(Math.max(0, lifecycle.remainingMs() - 2000)))
  services.streams.register(app)
  await app.register(
    async (v1) => {
      declareRouteRoles(v1, {
        auth,
        db,
        principals,
        credentials,
        rateLimits: deps.apiRateLimits ?? DEFAULT_API_RATE_LIMITS,
      })
      await v1.register(appRoutes, { db })
      await v1.register(documentRoutes, { services })
      await v1.register(analysisRoutes, { services })
      await v1.register(jobRoutes, { services })
      await v1.register(entityRoutes, { services })
      await v1.register(eventRoutes, { db })
      await v1.register(analyticsRoutes, { db })
      await v1.register(voiceRoutes, { services })
      await v1.register(storageRoutes, { services })
      await v1.register(vectorRoutes, { services })
      await v1.register(assistantRoutes, { services })
      await v1.register(auditRoutes, { db })
      await v1.register(sqlRoutes, { db, sandboxes })
      await v1.register(teamRoutes, { auth, principals })
      await v1.register(tenantRoutes, { services })
      await v1.register(apiKeyRoutes, {
        db,
        keys: {
          ...apiKeys,
          forget: (digest) => {
            apiKeys.forget(digest)
            lineage.forgetAll()
            relay?.announce({ kind: 'api_key', id: digest })
          },
        },
      })
      await v1.register(connectGptRoutes, { db, publicUrl: deps.publicUrl })
      await v1.register(realtimeRoutes, {
        services,
        lifetimeOf: credentialLifetime({ auth, credentials }),
        ...(deps.realtimeSocketsPerUser ? { socketsPerUser: deps.realtimeSocketsPerUser } : {}),
      })
      await v1.register(tenantTokenRoutes, {
        db,
        jwt: tokenJwt,
        onRevoked: (jti) => {
          tokenVerifier.forget(jti)
          lineage.forgetAll()
          relay?.announce({ kind: 'tenant_token', id: jti })
        },
      })
    },
    { prefix: '/api/v1' },
  )

  await app.register(mcpRoutes, {
    db,
    credentials,
    tools: assistantTools(services),
    rateLimits: deps.apiRateLimits ?? DEFAULT_API_RATE_LIMITS,
  })

  await app.register(demoRoutes, {
    prefix: '/api/demo',
    engines: resources.engines,
    pool: resources.pool,
    limits: deps.demoLimits ?? DEFAULT_DEMO_LIMITS,
  })

  await app.register(healthRoutes, { db, pool: resources.pool, lifecycle })
  await app.register(signedLinkRoutes, {
    blobs: resources.blobs,
    signer: createBlobLinkSigner(deps.secret, deps.publicUrl),
  })
  await app.register(publicObjectRoutes, { db, blobs: resources.blobs })

  const webRoot = deps.webRoot ?? defaultWebRoot
  const hasWeb = existsSync(path.join(webRoot, 'index.html'))
  // The build holds a .br and a .gz beside each text file (scripts/precompress-assets.ts).
  if (hasWeb)
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, preCompressed: true })
  app.setNotFoundHandler(notFoundHandler({ hasWeb, allowedMethods }))

  return app
}
