/**
 * buildApp(deps): the Fastify application with every plugin and feature route, never listening
 * (main.ts listens; tests call `app.inject`). Errors leave as RFC 9457 problem+json; the OpenAPI
 * 3.1 document is generated from the routes' zod schemas. The composition root, in parts
 * (decision 0124): registerPlatform (hooks, errors, rate limits, OpenAPI), buildServices (what
 * features use, with the job runner), registerCredentials (sign-in, principals, the credential
 * registry and its revocations), registerFeatures (FEATURES, the table of feature route plugins,
 * each given the one FeatureContext) and registerPlatformRoutes (probes, signed links, static
 * files, 404), last so every root hook reaches them.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify'
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
import type {
  AppResources,
  AppServices,
  AppTuning,
  FeatureContext,
  FeatureCredentials,
} from './services'
import type { Config } from './config'
import type { Notifier } from './realtime/notifier'
import { orgBlobPrefix } from './blob/blob-keys'
import { createBlobLinkSigner } from './blob/signed-links'
import { signedLinkRoutes } from './blob/signed-link-routes'
import { createAuth, type Auth } from './auth/auth'
import { authRoutes, DEFAULT_SIGN_IN_LIMITS } from './auth/auth-routes'
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
import { problemFor } from './http/problem'
import { sameOriginWrites } from './http/same-origin'
import { docsCspTransform, securityHeaders } from './http/security-headers'
import { frameworkErrorHandler } from './http/framework-errors'
import { clientErrorHandler } from './http/client-error'
import { recordRouteMethods } from './http/route-methods'
import { notFoundHandler } from './http/not-found'
import { noStoreForPrivateAnswers } from './http/cache-control'
import { healthRoutes } from './health/health-routes'
import { Lifecycle } from './ops/lifecycle'
import { createMetrics, type Metrics } from './ops/metrics'
import { currentLogContext, runWithLogContext } from './ops/log-context'
import { registerMetricsRoute } from './ops/metrics-route'
import { documentRoutes } from './features/documents/routes'
import { MAX_UPLOAD_BYTES } from './features/documents/schemas'
import { analysisRoutes } from './features/analysis/routes'
import { reviewRoutes } from './features/reviews/routes'
import { comparisonRoutes } from './features/comparisons/routes'
import { playbookRoutes } from './features/playbooks/routes'
import { playbookSchemaRoute } from './features/playbooks/schema-route'
import { appRoutes } from './features/apps/routes'
import { jobRoutes } from './features/jobs/routes'
import { entityRoutes } from './features/entities/routes'
import { eventRoutes } from './features/events/routes'
import { analyticsRoutes } from './features/analytics/routes'
import { voiceRoutes } from './features/voice/routes'
import { storageRoutes } from './features/storage/routes'
import { publicObjectRoutes } from './features/storage/public-routes'
import { demoRoutes } from './features/demo/routes'
import { vectorRoutes } from './features/vector/routes'
import { assistantRoutes } from './features/assistant/routes'
import { auditRoutes } from './features/audit/routes'
import { sqlRoutes } from './features/sql/routes'
import { teamRoutes } from './features/team/routes'
import { ssoRoutes } from './features/sso/routes'
import { archiveRoutes } from './features/archives/routes'
import { apiKeyRoutes } from './features/api-keys/routes'
import { createApiKeyVerifier } from './features/api-keys/api-key-verifier'
import { connectGptRoutes } from './features/connect-gpt/routes'
import { mcpRoutes } from './features/mcp/routes'
import { assistantTools } from './assistant-tools'
import { realtimeRoutes } from './features/realtime/routes'
import { tenantTokenRoutes } from './features/security/tenant-token-routes'
import { legalHoldRoutes } from './features/holds/routes'
import { retentionRoutes } from './features/retention/routes'
import { retentionSchedule } from './features/retention/schedule'
import { JobRunner } from './jobs/job-runner'
import { createNotifier } from './realtime/notifier'
import { databaseRateLimitStore } from './http/database-rate-limit-store'
import { ChangeFeed } from './realtime/change-feed'
import { JOB_CATALOGUE, type AppJobCatalogue } from './job-catalogue'
import { jobHandlers } from './job-handlers'
import { EventStreams } from './http/event-streams'

export interface AppDeps {
  /** Database, files, mail, worker pool and engines; the caller closes them after the app. */
  resources: AppResources
  /** The parsed configuration (loadConfig, server/config.ts), which holds every default. */
  config: Config
  /** Server secret (≥ 32 chars) for sessions and (through a derived key) tenant tokens. */
  secret: string
  /** Application log (see http/logger.ts createLogger); none when absent. */
  logger?: FastifyBaseLogger
  /**
   * Verifiers of other credentials an `Authorization` header may carry
   * (auth/credential-registry.ts), besides the API keys' and tenant tokens' own (`ldk_…`, `ldt_…`,
   * decisions 0047 and 0048), which every app registers.
   */
  credentialVerifiers?: readonly CredentialVerifier[]
  /** The process's graceful stop (server/ops/lifecycle.ts); a private one when absent. */
  lifecycle?: Lifecycle
  /**
   * On embedded PGlite, the file keeping the SQL runner sandboxes' empty database across restarts,
   * made when the app is ready so no query waits for its initdb (decision 0091); when absent it
   * is made at the first query and kept in memory.
   */
  sqlSandboxTemplate?: string
  /** Settings no environment variable sets (services.ts AppTuning). */
  tuning?: AppTuning
}

/** The app as buildApp makes it: Fastify typed by the routes' zod schemas. */
type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>

/** The methods of each registered path, for the 404 handler's 405 answers (http/route-methods.ts). */
type RouteMethods = ReturnType<typeof recordRouteMethods>

/** Where the versioned API is mounted: its routes declare roles and scopes (route-roles.ts). */
const API_V1 = '/api/v1'

/** A feature's route plugin, mounted at `prefix` and given the one FeatureContext. */
export interface FeatureEntry {
  /** The feature's folder under server/features/ (its routes.ts, or another routes module). */
  name: string
  prefix: typeof API_V1 | '/api/demo' | ''
  plugin: FastifyPluginAsync<FeatureContext, RawServerDefault, ZodTypeProvider>
}

/**
 * Every feature's routes, in registration order (decision 0124). A new feature is one line here;
 * its plugin takes FeatureContext (server/services.ts) and nothing else.
 */
export const FEATURES: readonly FeatureEntry[] = [
  { name: 'apps', prefix: API_V1, plugin: appRoutes },
  { name: 'documents', prefix: API_V1, plugin: documentRoutes },
  { name: 'analysis', prefix: API_V1, plugin: analysisRoutes },
  { name: 'reviews', prefix: API_V1, plugin: reviewRoutes },
  { name: 'comparisons', prefix: API_V1, plugin: comparisonRoutes },
  { name: 'playbooks', prefix: API_V1, plugin: playbookRoutes },
  { name: 'jobs', prefix: API_V1, plugin: jobRoutes },
  { name: 'entities', prefix: API_V1, plugin: entityRoutes },
  { name: 'events', prefix: API_V1, plugin: eventRoutes },
  { name: 'analytics', prefix: API_V1, plugin: analyticsRoutes },
  { name: 'voice', prefix: API_V1, plugin: voiceRoutes },
  { name: 'storage', prefix: API_V1, plugin: storageRoutes },
  { name: 'vector', prefix: API_V1, plugin: vectorRoutes },
  { name: 'assistant', prefix: API_V1, plugin: assistantRoutes },
  { name: 'audit', prefix: API_V1, plugin: auditRoutes },
  { name: 'sql', prefix: API_V1, plugin: sqlRoutes },
  { name: 'team', prefix: API_V1, plugin: teamRoutes },
  { name: 'sso', prefix: API_V1, plugin: ssoRoutes },
  { name: 'archives', prefix: API_V1, plugin: archiveRoutes },
  { name: 'api-keys', prefix: API_V1, plugin: apiKeyRoutes },
  { name: 'connect-gpt', prefix: API_V1, plugin: connectGptRoutes },
  { name: 'realtime', prefix: API_V1, plugin: realtimeRoutes },
  { name: 'security', prefix: API_V1, plugin: tenantTokenRoutes },
  { name: 'holds', prefix: API_V1, plugin: legalHoldRoutes },
  { name: 'retention', prefix: API_V1, plugin: retentionRoutes },
  // Outside /api/v1: /mcp checks its own credentials; the demo and public objects need none.
  { name: 'mcp', prefix: '', plugin: mcpRoutes },
  { name: 'demo', prefix: '/api/demo', plugin: demoRoutes },
  { name: 'storage', prefix: '', plugin: publicObjectRoutes },
  { name: 'playbooks', prefix: '', plugin: playbookSchemaRoute },
]

/** Builds the application. Call `app.ready()` (or inject) before use and `app.close()` after. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, resources, tuning = {} } = deps
  const streams = new EventStreams(
    {
      ...config.eventStreams,
      ...(tuning.streamKeepAliveMs ? { keepAliveMs: tuning.streamKeepAliveMs } : {}),
    },
    credentialKey,
  )
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && /^[\w-]{1,100}$/.test(incoming)
        ? incoming
        : randomUUID()
    },
    trustProxy: config.trustProxy,
    frameworkErrors: frameworkErrorHandler(config.publicUrl),
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>()
  const lifecycle = deps.lifecycle ?? new Lifecycle()
  // Before the OpenAPI document: its session cookie scheme names better-auth's cookie.
  const auth = createAuth({
    db: resources.database.db,
    mailer: resources.mailer,
    secret: deps.secret,
    publicUrl: config.publicUrl,
    log: app.log,
    onOrganizationDeleted: (orgId) => resources.blobs.deletePrefix(orgBlobPrefix(orgId)),
    maxOrganizationsPerUser: config.maxOrganizationsPerUser,
    ssoIdpOrigins: config.ssoIdpOrigins,
  })
  const { metrics, allowedMethods } = await registerPlatform(app, {
    config,
    resources,
    sessionCookie: getCookies(auth.options).sessionToken.name,
  })
  const services = await buildServices(app, {
    resources,
    config,
    tuning,
    streams,
    metrics,
    lifecycle,
  })
  const credentials = await registerCredentials(app, {
    auth,
    config,
    tuning,
    resources,
    notifier: services.notifier,
    secret: deps.secret,
    verifiers: deps.credentialVerifiers ?? [],
  })
  // Before the features, whose event-stream routes it guards (its onRoute hook sees later routes).
  services.streams.register(app)
  await registerFeatures(app, FEATURES, {
    services,
    config,
    tuning,
    credentials,
    databaseKind: resources.database.kind,
    assistantTools: assistantTools(services),
    sqlSandboxTemplate: deps.sqlSandboxTemplate,
  })
  await registerPlatformRoutes(app, {
    config,
    resources,
    lifecycle,
    secret: deps.secret,
    allowedMethods,
  })
  return app
}

/**
 * The platform every route stands on, registered before any route: request ids and their log
 * context, caching and security headers, metrics, same-origin writes, the problem+json error
 * handler, rate limits, multipart and WebSocket support, the OpenAPI document and its viewer (its
 * own routes come last: registerPlatformRoutes). Returns the metrics, which the job runner feeds,
 * and the methods of each path, which the 404 handler reads.
 */
async function registerPlatform(
  app: App,
  {
    config,
    resources,
    sessionCookie,
  }: {
    config: Config
    resources: AppResources
    /** better-auth's session cookie name, for the OpenAPI security scheme. */
    sessionCookie: string
  },
): Promise<{ metrics: Metrics; allowedMethods: RouteMethods }> {
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
    workerPool: () => resources.pool.stats(),
    dbConnections: resources.database.connections,
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
  if (config.metricsToken) registerMetricsRoute(app, metrics, config.metricsToken)
  app.addHook('onRequest', sameOriginWrites(config.publicUrl))

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

  app.addHook('onRequest', securityHeaders(config.publicUrl))
  // Several processes may share a PostgreSQL: their counters must be one (decision 0064).
  await app.register(
    rateLimit,
    rateLimitPluginOptions(
      resources.database.kind === 'postgres'
        ? databaseRateLimitStore(resources.database.db)
        : undefined,
    ),
  )
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 } })
  // Client messages are small subscriptions: 64 KiB is far more than one needs.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } })

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
        { name: 'reviews', description: 'Review grids: documents × questions, every cell cited' },
        { name: 'apps', description: 'Apps inside an organisation' },
        { name: 'jobs', description: 'Background jobs: progress, cancel (follow: realtime)' },
        { name: 'entities', description: 'Typed records with JSON data; CSV export and import' },
        { name: 'events', description: "The organisation's event log" },
        { name: 'search', description: 'Search by meaning over document passages' },
        { name: 'assistant', description: 'Questions answered with cited passages; conversations' },
        { name: 'team', description: 'Members, invitations and roles' },
        { name: 'sso', description: 'Single sign-on: identity providers, domains, require SSO' },
        { name: 'system', description: 'Health' },
        { name: 'security', description: 'API keys: credentials for programs' },
        { name: 'holds', description: 'Legal holds: data no deletion may reach while they stand' },
        {
          name: 'retention',
          description: 'Retention policies, the daily run that deletes what is due, its report',
        },
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
      components: { securitySchemes: securitySchemes(sessionCookie) },
    },
    transform: openApiTransform,
    transformObject: jsonSchemaTransformObject,
  })
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The x-min-role and x-required-scope of each operation, for a reader deciding what to sign with.
    uiConfig: { showExtensions: true },
    staticCSP: true,
    transformStaticCSP: docsCspTransform(config.publicUrl),
  })
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger())

  return { metrics, allowedMethods }
}

/**
 * The platform's routes no principal guards, registered last so every root hook reaches them (a
 * child scope copies its parent's hooks when it is registered): the probes, the signed links of
 * stored files, the built web app with its history fallback, and the 404 / 405 handler.
 */
async function registerPlatformRoutes(
  app: App,
  {
    config,
    resources,
    lifecycle,
    secret,
    allowedMethods,
  }: {
    config: Config
    resources: AppResources
    lifecycle: Lifecycle
    secret: string
    allowedMethods: RouteMethods
  },
): Promise<void> {
  await app.register(healthRoutes, { db: resources.database.db, pool: resources.pool, lifecycle })
  await app.register(signedLinkRoutes, {
    blobs: resources.blobs,
    signer: createBlobLinkSigner(secret, config.publicUrl),
  })
  const webRoot = config.webRoot
  const hasWeb = existsSync(path.join(webRoot, 'index.html'))
  // The build holds a .br and a .gz beside each text file (scripts/precompress-assets.ts).
  if (hasWeb)
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, preCompressed: true })
  app.setNotFoundHandler(notFoundHandler({ hasWeb, allowedMethods }))
}

/**
 * What features use (AppServices): the resources but the database handle and the mailer, the
 * notifier and change feed (closed with the app), the job runner with every kind bound to its
 * handler (started when the app is ready, drained and stopped by the graceful stop), the event
 * streams and the limits of the configuration.
 */
async function buildServices(
  app: App,
  {
    resources,
    config,
    tuning,
    streams,
    metrics,
    lifecycle,
  }: {
    resources: AppResources
    config: Config
    tuning: AppTuning
    streams: EventStreams
    metrics: Metrics
    lifecycle: Lifecycle
  },
): Promise<AppServices> {
  const db = resources.database.db
  const notifier = createNotifier(resources.database, app.log)
  const changes = new ChangeFeed(notifier, app.log)
  await changes.start()
  app.addHook('onClose', async () => {
    await changes.close()
    await notifier.close()
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
      concurrency: config.jobs.concurrency,
      perOrgCap: config.jobs.perOrgCap,
      retentionDays: config.jobs.retentionDays,
      ...tuning.jobs,
    }),
    notifier,
    changes,
    streams,
    limits: {
      extraction: config.extraction,
      maxRecordingMinutes: config.maxRecordingMinutes,
      storageQuotaBytes: config.storageQuotaBytes,
      storageQuotaObjects: config.storageQuotaObjects,
      importMaxBytes: config.importMaxBytes,
      maxOrganizationsPerUser: config.maxOrganizationsPerUser,
      ocrLanguages: config.ocrLanguages,
    },
  }
  // Every job kind is bound to its handler here, at composition, never inside a route plugin.
  services.jobs.bind(jobHandlers(services))
  // Each organisation's daily retention run is queued from the runner's heartbeat (decision 0148).
  services.jobs.every(retentionSchedule({ db, jobs: services.jobs }))
  lifecycle.onDrain(() => services.jobs.drain())
  app.addHook('onReady', () => services.jobs.start())
  // What is left of a graceful stop's budget, less 2 s to record the handed-back jobs and close.
  app.addHook('onClose', () => services.jobs.stop(Math.max(0, lifecycle.remainingMs() - 2000)))
  return services
}

/**
 * Sign-in (better-auth's routes), the cache of resolved principals, the registry of
 * `Authorization`-header credentials (API keys, tenant tokens, `verifiers`), refused ones limited
 * per address, and on PostgreSQL the relay that tells the other processes of each revocation.
 * Returns the pieces features use (FeatureCredentials).
 */
async function registerCredentials(
  app: App,
  {
    auth,
    config,
    tuning,
    resources,
    notifier,
    secret,
    verifiers,
  }: {
    auth: Auth
    config: Config
    tuning: AppTuning
    resources: AppResources
    notifier: Notifier
    secret: string
    verifiers: readonly CredentialVerifier[]
  },
): Promise<FeatureCredentials> {
  const db = resources.database.db
  // Set once the relay listens (below); revocations before then have no other process to tell.
  let relay: RevocationRelay | undefined
  const principals = registerPrincipalCache(app, {
    onRevoke: () => relay?.announce({ kind: 'principals' }),
  })
  // Whether the credentials a key or token was created with are all still valid (decision
  // 0104): forgotten on every revocation, since the revoked one may be anyone's ancestor.
  const lineage = createLineageCheck(db)
  const apiKeys = createApiKeyVerifier({ db, principals, lineage })
  const tokenJwt = tenantTokenJwt(secret)
  const tokenVerifier = createTenantTokenVerifier({ db, jwt: tokenJwt, principals, lineage })
  // Refused credentials are cached and limited per client address (decision 0105).
  const registry = limitUnknownCredentials(
    app,
    createCredentialRegistry([apiKeys.verifier, tokenVerifier, ...verifiers]),
    config.apiRateLimits.failedCredentialsPerMinute,
  )
  await app.register(authRoutes, {
    auth,
    db: resources.database.db,
    origin: config.publicUrl,
    limits: { ...DEFAULT_SIGN_IN_LIMITS, ...tuning.signIn, perClient: config.signInPerClient },
  })
  const forgetApiKey = (digest: string) => {
    apiKeys.forget(digest)
    lineage.forgetAll()
  }
  const forgetTenantToken = (jti: string) => {
    tokenVerifier.forget(jti)
    lineage.forgetAll()
  }
  // Other processes exist only on PostgreSQL (PGlite admits one).
  if (resources.database.kind === 'postgres') {
    relay = await startRevocationRelay(
      notifier,
      { forgetPrincipals: () => principals.forgetAll(), forgetApiKey, forgetTenantToken },
      app.log,
    )
  }
  app.addHook('onClose', async () => {
    await relay?.close()
  })
  return {
    auth,
    principals,
    registry,
    tenantTokens: tokenJwt,
    revoked: {
      apiKey: (digest) => {
        forgetApiKey(digest)
        relay?.announce({ kind: 'api_key', id: digest })
      },
      tenantToken: (jti) => {
        forgetTenantToken(jti)
        relay?.announce({ kind: 'tenant_token', id: jti })
      },
    },
  }
}

/**
 * Registers `table`'s plugins, each with `context`, one encapsulated scope per prefix in the
 * table's order; under /api/v1 the scope first declares the routes' roles, scopes and budgets
 * (auth/route-roles.ts), so every route there is guarded.
 */
async function registerFeatures(
  app: App,
  table: readonly FeatureEntry[],
  context: FeatureContext,
): Promise<void> {
  const { credentials } = context
  for (const prefix of new Set(table.map((feature) => feature.prefix))) {
    await app.register(
      async (scope) => {
        if (prefix === API_V1)
          declareRouteRoles(scope, {
            auth: credentials.auth,
            db: context.services.db,
            principals: credentials.principals,
            credentials: credentials.registry,
            rateLimits: context.config.apiRateLimits,
          })
        for (const feature of table.filter((entry) => entry.prefix === prefix))
          await scope.register(feature.plugin, context)
      },
      { prefix },
    )
  }
}
