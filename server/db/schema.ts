/**
 * Database schema (Drizzle, PostgreSQL). Two kinds of tables:
 * - auth tables owned by better-auth (user, session, account, verification, organization, member,
 *   invitation, and its SSO plugin's sso_provider), written from better-auth 1.7's documented schema; no RLS, reached only by the
 *   auth layer;
 * - tenant tables (apps, documents, document_counts, analyses, audit_logs, jobs, entities, events,
 *   recordings, recording_segments, voice_consents, doc_chunks, conversations, messages,
 *   api_keys, org_settings, sql_queries, …): every row has `org_id`, and RLS is
 *   enabled, forced and filtered on `current_setting('app.org_id')` (see migrations/*_rls.sql).
 */
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  jsonb,
  integer,
  pgTable,
  real,
  text,
  timestamp,
  uuid,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { AUDIT_ACTOR_TYPES, type AuditActorType } from './actor-types'
import { ssoConfigColumn } from './sso-secrets'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const session = pgTable('session', {
  id: text('id').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  token: text('token').notNull().unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  ipAddress: text('ip_address'),
  userAgent: text('user_agent'),
  userId: text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
  activeOrganizationId: text('active_organization_id'),
})

export const account = pgTable('account', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull(),
  providerId: text('provider_id').notNull(),
  userId: text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
  accessToken: text('access_token'),
  refreshToken: text('refresh_token'),
  idToken: text('id_token'),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
  refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
  scope: text('scope'),
  password: text('password'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
)

export const organization = pgTable('organization', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  logo: text('logo'),
  metadata: text('metadata'),
  createdAt: createdAt(),
})

export const member = pgTable(
  'member',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('member_org_user_idx').on(t.organizationId, t.userId)],
)

/**
 * The `status` of an invitation an organisation import made from its archive's members (decision
 * 0103): not mailed, not acceptable (better-auth accepts, lists to the invitee and counts only
 * 'pending' ones), shown on the Members page for an owner or admin to send or cancel.
 */
export const UNSENT_INVITATION_STATUS = 'unsent'

export const invitation = pgTable('invitation', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organization.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  role: text('role'),
  status: text('status').notNull().default('pending'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  inviterId: text('inviter_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
})

/** How an SSO provider's domain was verified: a DNS TXT record, or an owner's attestation. */
export const SSO_DOMAIN_VERIFICATIONS = ['dns', 'attested'] as const
export type SsoDomainVerification = (typeof SSO_DOMAIN_VERIFICATIONS)[number]

/**
 * An organisation's identity provider (OIDC or SAML 2.0), the `ssoProvider` model of
 * `@better-auth/sso` 1.7 (its documented schema: issuer, oidcConfig, samlConfig, userId,
 * providerId, organizationId, domain, domainVerified) plus Lexdesk's settings, which the plugin
 * never reads or writes (decision 0152): `requireSso` (e-mail links refused for its domains once
 * verified), `defaultRole` of a member joining on a first SSO sign-in, and how, when and by whom
 * the domain was verified. An auth table like better-auth's own: global, no RLS, reached only by
 * the auth layer, always by `organization_id` (server/features/sso) or by the plugin, which
 * checks the caller is an owner or admin of that organisation. Its configurations' secrets are
 * encrypted at rest (sso-secrets.ts). `domain` holds one domain or several, comma-separated.
 */
export const ssoProvider = pgTable(
  'sso_provider',
  {
    id: text('id').primaryKey(),
    issuer: text('issuer').notNull(),
    oidcConfig: ssoConfigColumn('oidc_config'),
    samlConfig: ssoConfigColumn('saml_config'),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    providerId: text('provider_id').notNull().unique(),
    organizationId: text('organization_id').references(() => organization.id, {
      onDelete: 'cascade',
    }),
    domain: text('domain').notNull(),
    domainVerified: boolean('domain_verified').notNull().default(false),
    requireSso: boolean('require_sso').notNull().default(false),
    defaultRole: text('default_role').notNull().default('member'),
    domainVerifiedVia: text('domain_verified_via').$type<SsoDomainVerification>(),
    domainVerifiedBy: text('domain_verified_by').references(() => user.id, {
      onDelete: 'set null',
    }),
    domainVerifiedAt: timestamp('domain_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sso_provider_organization_idx').on(t.organizationId),
    check('sso_provider_default_role', sql`${t.defaultRole} in ('member', 'admin')`),
    check(
      'sso_provider_verified_via',
      sql`${t.domainVerifiedVia} is null or ${t.domainVerifiedVia} in ('dns', 'attested')`,
    ),
  ],
)

/** Org reference shared by tenant tables; deleting an organisation deletes its data. */
const orgId = () =>
  text('org_id')
    .notNull()
    .references(() => organization.id, { onDelete: 'cascade' })

export const apps = pgTable(
  'apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    slug: text('slug').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('apps_org_slug_idx').on(t.orgId, t.slug),
    // Target of the composite (org_id, app_id) foreign keys: a row can only name its own org's app.
    uniqueIndex('apps_org_id_idx').on(t.orgId, t.id),
  ],
)

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    /**
     * The app (decision 8) the document belongs to; null = organisation-wide. References
     * apps (org_id, id) ON DELETE SET NULL (app_id), declared in migration 0006_apps-scope.
     */
    appId: uuid('app_id'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /**
     * The first 150 characters of `content` (a library card's preview, spec), kept by PostgreSQL.
     * Stored so a page of the library reads no compressed text (decision 7).
     */
    preview: text('preview')
      .notNull()
      .generatedAlwaysAs(sql`substr(content, 1, 150)`),
    documentType: text('document_type').notNull().default('contract'),
    createdAt: createdAt(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    /** Blob-store key of the original upload; null for pasted text. */
    fileKey: text('file_key'),
    fileName: text('file_name'),
    mimeType: text('mime_type'),
    sizeBytes: integer('size_bytes'),
    /**
     * 'ok' when text was extracted, 'empty' when the file had no text layer (or too little: a
     * scan, whose OCR job then fills `content`), 'ocr' when `content` was recognised by OCR.
     */
    textStatus: text('text_status').notNull().default('ok'),
    /**
     * For recognised text ('ocr'): the offset in `content` where each page's text starts, page 1
     * first, so a cited span's page is found (decision 0053); null otherwise.
     */
    pageStarts: integer('page_starts').array(),
    /**
     * Whom the firm acts for in this document (server/ai/analyzer/we-act-for.ts: `{ kind:
     * 'party', party }` or `{ kind: 'role', role }`, decision 0073); null until a user chooses.
     * Read through storedWeActFor (an imported archive may hold anything). Risks are oriented to
     * it when an analysis is read.
     */
    weActFor: jsonb('we_act_for'),
  },
  (t) => [
    // The library's order (newest first, id as tie-break), so a page stops after its rows.
    index('documents_org_created_idx').on(
      t.orgId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('documents_org_app_created_idx').on(
      t.orgId,
      t.appId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
)

/**
 * How many documents an organisation holds per app and document type: a counter kept by the
 * trigger `documents_count` (migration 0007) in the same transaction as every insert, delete and
 * change of type or app, so the library's total and its list of types cost one small index read
 * instead of a scan of every document (decision 7). `app_id` null = organisation-wide documents.
 */
export const documentCounts = pgTable(
  'document_counts',
  {
    orgId: orgId(),
    appId: uuid('app_id'),
    documentType: text('document_type').notNull(),
    documents: integer('documents').notNull(),
  },
  (t) => [unique('document_counts_key').on(t.orgId, t.appId, t.documentType).nullsNotDistinct()],
)

export const analyses = pgTable(
  'analyses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    engine: text('engine').notNull(),
    model: text('model').notNull(),
    result: jsonb('result').notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [index('analyses_document_idx').on(t.documentId, t.createdAt)],
)

/**
 * The audit trail (server/audit): append-only for the application role (migration 0002). Who
 * acted is `actor_type` (one of AUDIT_ACTOR_TYPES: a later credential kind extends the list and
 * this check in a migration of its own; `imported` for a row an import brought, decision 0103) with `actor_id` (the user, or null for the system) and, for
 * a credential (an API key, say), `credential_id`. Read newest first by (created_at, id), the
 * keyset of the audit viewer (decision 0046).
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    actorType: text('actor_type').notNull().$type<AuditActorType>(),
    actorId: text('actor_id'),
    credentialId: text('credential_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    meta: jsonb('meta').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_org_created_id_idx').on(t.orgId, t.createdAt, t.id),
    index('audit_logs_org_action_created_idx').on(t.orgId, t.action, t.createdAt, t.id),
    check(
      'audit_logs_actor_type_check',
      sql.raw(`actor_type IN (${AUDIT_ACTOR_TYPES.map((a) => `'${a}'`).join(', ')})`),
    ),
  ],
)

/**
 * Background jobs (server/jobs): durable, tenant-scoped, claimed by the job runner across
 * organisations through the `lexdesk_worker` role (see migrations/0004_jobs-rls.sql).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    /** Handler name, e.g. 'analysis'. */
    kind: text('kind').notNull(),
    /** queued | running | succeeded | failed | cancelled */
    status: text('status').notNull().default('queued'),
    /** 0..1 */
    progress: real('progress').notNull().default(0),
    /** Short user-facing progress message. */
    message: text('message'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** User-safe failure message; internal details go to the log only. */
    error: text('error'),
    /** The failure's code from the closed list (server/errors/error-codes.ts), or null. */
    errorCode: text('error_code'),
    /** What the job works on, e.g. a document id, so the UI can find a subject's running jobs. */
    subjectId: text('subject_id'),
    input: jsonb('input').notNull().default({}),
    result: jsonb('result'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Instance id of the server process running the job. */
    lockedBy: text('locked_by'),
    /** The id of the request that queued the job (its log lines carry it); null if the server did. */
    requestId: text('request_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Work nobody is waiting on (indexing for search): it yields to the user's own jobs and holds
     * at most all but one of its organisation's slots (decision 0028).
     */
    background: boolean('background').notNull().default(false),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('jobs_org_created_idx').on(t.orgId, t.createdAt),
    index('jobs_subject_idx').on(t.orgId, t.subjectId),
    index('jobs_queued_idx')
      .on(t.createdAt, t.id)
      .where(sql`status = 'queued'`),
    index('jobs_running_idx')
      .on(t.orgId)
      .where(sql`status = 'running'`),
    // The database keeps the lifecycle honest, whatever writes the row (the runner's own SQL, a
    // trigger such as migration 0019's, a future feature).
    check(
      'jobs_status_check',
      sql`status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')`,
    ),
    check('jobs_progress_check', sql`progress >= 0 AND progress <= 1`),
  ],
)

/**
 * Entities (issue 9): an organisation's own typed records (clients, matters, counterparties,
 * leads) with free JSON `data`. `app_id` null = organisation-wide; it references apps (org_id,
 * id) ON DELETE SET NULL (app_id) in the custom migration entities-rls (decision 8).
 * `import_job_id` names the CSV import job that wrote the row; while that import is staging
 * (a row in entity_imports) the row is out of sight (decision 0035).
 */
export const entities = pgTable(
  'entities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    type: text('type').notNull().default('item'),
    name: text('name').notNull(),
    data: jsonb('data').notNull().default({}),
    createdAt: createdAt(),
    importJobId: uuid('import_job_id'),
  },
  (t) => [
    // The default order (created_at desc, id desc) and the export's keyset walk.
    index('entities_org_created_idx').on(
      t.orgId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Exact type filter, and sorts by type then name.
    index('entities_org_type_name_idx').on(t.orgId, t.type, t.name, t.id),
    index('entities_org_name_idx').on(t.orgId, t.name, t.id),
    // A failed or retried import's sweep finds the rows it staged.
    index('entities_import_job_idx')
      .on(t.importJobId)
      .where(sql`import_job_id IS NOT NULL`),
  ],
)

/**
 * CSV imports being staged (decision 0035): while an import job's row is here, the entities it
 * has written (`entities.import_job_id`) are hidden from lists, search, export, edits and the
 * counters; the import publishes them all at once by deleting this row, or sweeps them on
 * failure before deleting it.
 */
export const entityImports = pgTable('entity_imports', {
  jobId: uuid('job_id').primaryKey(),
  orgId: orgId(),
  createdAt: createdAt(),
})

/**
 * How many entities an organisation holds per app and type: a counter kept by the statement
 * triggers `entities_count_*` (migration 0021) in the same transaction as every insert, delete and
 * update of entities, so a list without a search counts its matches with one small read instead of
 * a scan of every entity (decision 0029). `app_id` null = organisation-wide entities.
 */
export const entityCounts = pgTable(
  'entity_counts',
  {
    orgId: orgId(),
    appId: uuid('app_id'),
    type: text('type').notNull(),
    entities: integer('entities').notNull(),
  },
  (t) => [unique('entity_counts_key').on(t.orgId, t.appId, t.type).nullsNotDistinct()],
)

/**
 * Events (issue 9): a log of what happened in an organisation (document uploaded, analysis
 * finished, entities imported…), written by server/events/record-event.ts. `id` is a growing
 * number, so events of one transaction keep their order.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: orgId(),
    appId: uuid('app_id'),
    kind: text('kind').notNull(),
    meta: jsonb('meta').notNull().default({}),
    /**
     * The user who acted (who did what, on the dashboard); null for the system and for an
     * organisation's own credential (decision 0060).
     */
    actorId: text('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_org_created_idx').on(
      t.orgId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('events_org_kind_created_idx').on(
      t.orgId,
      t.kind,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
)

/**
 * Daily rollups of the organisation's activity (issue 30, decision 0060), so the dashboard and
 * analytics read a few rows per day instead of scanning the event log or the jobs: per UTC day,
 * app (null = organisation-wide) and `metric`, how many (`count`) and, for jobs, how long in total
 * (`total_ms`). Kept by triggers in the same transaction as the write (migration
 * insight-analytics-rollups): `metric` is an event kind (every insert into `events`) or
 * `job:<kind>` (a foreground job that succeeded, its run from started_at to finished_at). No
 * foreign key to apps: an app's history stays in the organisation's totals after the app goes.
 */
export const activityDaily = pgTable(
  'activity_daily',
  {
    orgId: orgId(),
    appId: uuid('app_id'),
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    totalMs: bigint('total_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('activity_daily_key').on(t.orgId, t.day, t.metric, t.appId).nullsNotDistinct()],
)

/**
 * Who was active on which UTC day in which app (decision 0060): one row per user, day and app
 * that has an event with an actor, added by the same trigger as activity_daily, so "active
 * users" over 90 days counts at most users × 90 × apps rows.
 */
export const activityUsers = pgTable(
  'activity_users',
  {
    orgId: orgId(),
    appId: uuid('app_id'),
    day: date('day', { mode: 'string' }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [unique('activity_users_key').on(t.orgId, t.day, t.appId, t.userId).nullsNotDistinct()],
)

/**
 * Who was active on which UTC day in the whole organisation, whatever the app (decision 0060):
 * activity_users without the app, so "active users" of all apps counts users × days rows, not
 * users × days × apps. No app_id, so an app-scoped principal's event adds its user here too;
 * the analytics service reads it only for whole-organisation principals.
 */
export const activityOrgUsers = pgTable(
  'activity_org_users',
  {
    orgId: orgId(),
    day: date('day', { mode: 'string' }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [unique('activity_org_users_key').on(t.orgId, t.day, t.userId)],
)

/**
 * Voice recordings (issue 7): the audio is in the blob store under `fileKey` (bucket
 * `voice-recordings`, `{userId}/{timestamp}.webm`, inside the organisation's folder); the
 * transcript is a document (`document_type` 'transcript'). `status`: transcribing | ready |
 * failed | cancelled. `app_id` references apps (org_id, id) like documents (custom migration).
 */
export const recordings = pgTable(
  'recordings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    title: text('title').notNull(),
    fileKey: text('file_key').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Seconds of audio, known once decoded. */
    durationSec: real('duration_sec'),
    status: text('status').notNull().default('transcribing'),
    /** User-safe reason of a failed transcription. */
    error: text('error'),
    /** The transcription job. */
    jobId: uuid('job_id'),
    /** The transcript document, once transcribed. */
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    engine: text('engine'),
    model: text('model'),
    /** The memo summary (server/ai/memo/memo-summary.ts), saved with the transcript. */
    memoSummary: jsonb('memo_summary'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('recordings_org_created_idx').on(
      t.orgId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('recordings_org_app_created_idx').on(
      t.orgId,
      t.appId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
)

/**
 * The timed pieces of a recording's transcript: seconds into the audio and character offsets
 * [start_offset, end_offset) into the transcript document's content, so search results and
 * citations can point into the recording.
 */
export const recordingSegments = pgTable(
  'recording_segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    startSec: real('start_sec').notNull(),
    endSec: real('end_sec').notNull(),
    text: text('text').notNull(),
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
    /** The speech engine's confidence in the segment, 0..1; null when it gave none (issue 43). */
    confidence: real('confidence'),
  },
  (t) => [uniqueIndex('recording_segments_recording_idx').on(t.recordingId, t.position)],
)

/** A member's acknowledgement of the recording-consent notice, once per organisation. */
export const voiceConsents = pgTable(
  'voice_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('voice_consents_org_user_idx').on(t.orgId, t.userId)],
)

/**
 * Passages of a document for search by meaning (issue 8, decision 0016): consecutive pieces of
 * `documents.content` with character offsets `[start_offset, end_offset)`, taking the document's
 * org and app. Two columns live only in migrations (drizzle-kit cannot express them portably):
 * `tsv` (generated English tsvector, GIN-indexed) and, where pgvector is installed,
 * `embedding vector(384)` with its HNSW index (`doc_chunks-search` custom migration).
 * `embedder` names the engine, model and dimension of the stored embedding (null until embedded).
 */
export const docChunks = pgTable(
  'doc_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    content: text('content').notNull(),
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
    embedder: text('embedder'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('doc_chunks_document_ordinal_idx').on(t.documentId, t.ordinal),
    index('doc_chunks_org_app_idx').on(t.orgId, t.appId),
  ],
)

/** Assistant conversations (issue 8): listed newest first in pages of 50. */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    /** The app it was started in (decision 8); null = organisation-wide. */
    appId: uuid('app_id'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    /** The name its creator or an admin gave it (renameConversation); null until then. */
    title: text('title'),
  },
  (t) => [
    index('conversations_org_started_idx').on(
      t.orgId,
      t.startedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('conversations_org_app_started_idx').on(
      t.orgId,
      t.appId,
      t.startedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
)

/** The messages of a conversation, oldest first; assistant messages carry their citations. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** user | assistant */
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** [{ n, documentId, start, end, quote }] for assistant messages, [] otherwise. */
    citations: jsonb('citations').notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index('messages_conversation_created_idx').on(t.conversationId, t.createdAt, t.id)],
)

/**
 * The credentials an API key or tenant token was created with, oldest first, each
 * `api_key:<id>` or `token:<jti>` (server/auth/credential-ref.ts); empty when a signed-in person
 * created it. Written once, at creation: the credential is valid only while every one of them is
 * (server/auth/lineage-check.ts), and revoking one revokes it (decision 0104).
 */
const credentialLineage = () =>
  text('lineage')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`)

/**
 * API keys (issue 23, decision 0047): credentials a program sends as `Authorization: Bearer ldk_…`
 * or `x-api-key: ldk_…`. Only the SHA-256 digest of the key is kept (`key_hash`, lower-case hex),
 * never the key; `prefix` (`ldk_` + 6 characters) is shown to tell keys apart. `scopes` is a
 * subset of SCOPES (server/auth/scopes.ts). A key is void once `revoked_at` or `expires_at` has
 * passed, or once any credential of its `lineage` is; `last_used_at` is written at most once a
 * minute per key (api-key-verifier.ts).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    // A key acts for its creator (capped at their role): it goes when they do.
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lineage: credentialLineage(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_idx').on(t.keyHash),
    index('api_keys_org_created_idx').on(t.orgId, t.createdAt),
    // An app-bound key names one of its own organisation's apps (decision 8's composite key).
    foreignKey({
      columns: [t.orgId, t.appId],
      foreignColumns: [apps.orgId, apps.id],
      name: 'api_keys_app_fk',
    }).onDelete('cascade'),
  ],
)

/**
 * Settings of an organisation that are tenant data (issue 23): one row per organisation, made
 * when a setting is first changed; no row means every setting at its default. Today only the
 * owner's switch for external assistants (custom GPTs, MCP clients), off by default because
 * turning it on sends the firm's documents to the assistant's provider (decision 0049).
 */
export const orgSettings = pgTable('org_settings', {
  orgId: orgId().primaryKey(),
  externalAssistantsEnabled: boolean('external_assistants_enabled').notNull().default(false),
  updatedAt: updatedAt(),
  updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
})

/**
 * Tenant tokens (decision 0048): one row per minted token, keyed by its JWT id (`jti`), so tokens
 * can be listed and revoked before they expire. The token itself is never stored: it is signed,
 * and verifying it needs only the signing key and this row's `revoked_at`. `scope` is the
 * token's space-separated scope claim; `app_id` null = the whole organisation. `(org_id, app_id)`
 * references apps (org_id, id) ON DELETE CASCADE (custom migration tokens-rls): deleting an app
 * ends its tokens. A token is void once any credential of its `lineage` is (decision 0104).
 */
export const tenantTokens = pgTable(
  'tenant_tokens',
  {
    jti: uuid('jti').primaryKey(),
    orgId: orgId(),
    appId: uuid('app_id'),
    scope: text('scope').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lineage: credentialLineage(),
  },
  (t) => [index('tenant_tokens_org_created_idx').on(t.orgId, t.createdAt, t.jti)],
)

/**
 * Storage buckets of an organisation (issue 24, decision 0055): a named folder of objects. The
 * name is what S3 allows a bucket to be called (lower-case letters, digits and `-`, 3 to 63),
 * unique in the organisation; a public bucket's objects are listed in the app like any other
 * (serving them without a signature is left for later, decision 0055).
 */
export const storageBuckets = pgTable(
  'storage_buckets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    name: text('name').notNull(),
    public: boolean('public').notNull().default(false),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('storage_buckets_org_name_idx').on(t.orgId, t.name),
    // The composite target of storage_objects' foreign key: an object's bucket is its org's.
    unique('storage_buckets_org_id_key').on(t.orgId, t.id),
    check('storage_buckets_name_check', sql`name ~ '^[a-z0-9-]{3,63}$'`),
  ],
)

/**
 * Objects in a bucket: the row holds the name (a normalised relative path, ≤ 1,024 bytes), the
 * size, the type sniffed from the first bytes, and the blob key of the current bytes
 * (`orgs/<org>/buckets/<bucket>/<uuid>`, a new one per write so an overwrite that fails leaves
 * the old bytes in place).
 */
export const storageObjects = pgTable(
  'storage_objects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    bucketId: uuid('bucket_id').notNull(),
    name: text('name').notNull(),
    fileKey: text('file_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('storage_objects_bucket_name_idx').on(t.bucketId, t.name),
    index('storage_objects_org_idx').on(t.orgId),
    foreignKey({
      columns: [t.orgId, t.bucketId],
      foreignColumns: [storageBuckets.orgId, storageBuckets.id],
      name: 'storage_objects_bucket_fk',
    }).onDelete('cascade'),
    check('storage_objects_size_check', sql`size_bytes >= 0`),
  ],
)

/**
 * Rate-limit counters shared by every server process on one PostgreSQL (issue 28, decision
 * 0064): one row per limiter and key (the key's SHA-256, never an address or an e-mail in
 * clear), its requests in the current fixed window and when that window ends. Not tenant data:
 * the keys span organisations (a client address) and no request reads another's row.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
})

/**
 * The SQL runner's history (issue 30, decision 0061): each query a person (or credential) ran in
 * an organisation, newest first, the last 20 per actor kept (older ones are deleted as a new one is
 * recorded). `actor` is the user id, or `<actor type>:<credential id>` for a credential without
 * a user (the form of a tenant token's `sub`, decision 0048). `error` is the refusal's or the
 * database's message shown to the person, null when the query ran.
 */
export const sqlQueries = pgTable(
  'sql_queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    actor: text('actor').notNull(),
    sql: text('sql').notNull(),
    rowCount: integer('row_count'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('sql_queries_org_actor_created_idx').on(t.orgId, t.actor, t.createdAt, t.id)],
)

/**
 * Review grids (issue 44, decision 0137): a table of documents (rows) and questions (columns)
 * whose every cell is answered with citations. A review belongs to an organisation and, when made
 * inside one, to an app (`app_id`, references apps (org_id, id) ON DELETE CASCADE in migration
 * 0058_reviews). `row_source` is `selection` (documents picked from the library) or `app` (every
 * document of its app, added again as each fill starts).
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    name: text('name').notNull(),
    rowSource: text('row_source').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('reviews_org_created_idx').on(
      t.orgId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // An app's reviews: the app-bound list and the look-up of an app's app-wide reviews on each
    // new document of the app (server/documents/app-review-fills.ts), migration 0059.
    index('reviews_app_idx').on(t.appId),
    check('reviews_row_source_check', sql`row_source IN ('selection', 'app')`),
  ],
)

/**
 * A review's columns, left to right by `position`: a preset (`preset_key`: a CUAD category, a key
 * term or a deal-sheet line, server/features/reviews/review-presets.ts) or a custom `question`,
 * each answered in `answer_type`. `app_id` is the review's, copied so the app clause of RLS
 * applies to this table too.
 */
export const reviewColumns = pgTable(
  'review_columns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    presetKey: text('preset_key'),
    question: text('question'),
    answerType: text('answer_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_columns_review_position_idx').on(t.reviewId, t.position),
    check(
      'review_columns_answer_type_check',
      sql`answer_type IN ('yes_no', 'date', 'duration', 'money', 'party', 'text', 'list')`,
    ),
    check('review_columns_source_check', sql`(preset_key IS NULL) <> (question IS NULL)`),
  ],
)

/** A review's rows: one document each, top to bottom by `position`. */
export const reviewRows = pgTable(
  'review_rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_rows_review_document_idx').on(t.reviewId, t.documentId),
    index('review_rows_review_position_idx').on(t.reviewId, t.position),
    // A document's rows: its deletion's cascade reads them (migration 0059).
    index('review_rows_document_idx').on(t.documentId),
  ],
)

/**
 * One answer of the grid: row × column. `state` is pending → running → answered | not_found |
 * failed | unverified (an answer whose citation is not its document's slice: kept out of
 * `answer`, reason given); `answer` is the typed, normalised value (review-answer.ts), `citations`
 * `[{ start, end, text }]` each equal to its document's slice when written. A lawyer's `override`
 * (`{ answer, note, by, at }`) is kept beside the original answer; `verified_*` records a check.
 * Row and column positions are copied so a page of cells reads in grid order from one index.
 */
export const reviewCells = pgTable(
  'review_cells',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    rowId: uuid('row_id')
      .notNull()
      .references(() => reviewRows.id, { onDelete: 'cascade' }),
    columnId: uuid('column_id')
      .notNull()
      .references(() => reviewColumns.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').notNull(),
    rowPosition: integer('row_position').notNull(),
    columnPosition: integer('column_position').notNull(),
    state: text('state').notNull().default('pending'),
    reason: text('reason'),
    answer: jsonb('answer'),
    citations: jsonb('citations').notNull().default([]),
    override: jsonb('override'),
    verified: boolean('verified').notNull().default(false),
    verifiedBy: text('verified_by').references(() => user.id, { onDelete: 'set null' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('review_cells_row_column_idx').on(t.rowId, t.columnId),
    index('review_cells_review_order_idx').on(t.reviewId, t.rowPosition, t.columnPosition),
    index('review_cells_review_state_idx').on(t.reviewId, t.state, t.rowPosition),
    index('review_cells_column_idx').on(t.columnId),
    check(
      'review_cells_state_check',
      sql`state IN ('pending', 'running', 'answered', 'not_found', 'failed', 'unverified')`,
    ),
  ],
)

/**
 * Legal holds (issue 45, decision 0147): an order to keep an app (a matter), a document, a
 * recording or a member's data (`target_kind`, `target_id`: the app's, document's or recording's
 * uuid, the member's user id) while it stands (`released_at` null). Triggers of migration
 * 0060_legal_holds refuse every DELETE of held rows (SQLSTATE `LH409`, server/holds/); a hold is
 * released, never deleted by a request. `reason` is the firm's own note (≤ 500 characters), never
 * shown in a refusal.
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    releasedBy: text('released_by').references(() => user.id, { onDelete: 'set null' }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    index('legal_holds_org_target_idx').on(t.orgId, t.targetKind, t.targetId),
    index('legal_holds_org_created_idx').on(t.orgId, t.createdAt.desc(), t.id.desc()),
    check(
      'legal_holds_target_kind_check',
      sql`target_kind IN ('app', 'document', 'recording', 'member')`,
    ),
    check('legal_holds_reason_check', sql`char_length(reason) BETWEEN 1 AND 500`),
    check('legal_holds_release_check', sql`released_at IS NOT NULL OR released_by IS NULL`),
  ],
)

/**
 * Comparisons of two versions of a contract (issue 46, decision 0149): a base and a revised
 * document of the organisation, compared by the 'comparison' job (server/compare/ compareTexts)
 * into `result` (server/features/comparisons/stored-comparison.ts: clauses, their alignment, the
 * changes cited in both texts, the redline stream as lengths). Derived data: deleting either
 * document deletes it (foreign keys ON DELETE CASCADE), so does the organisation. `app_id` is the
 * documents' app when both have the same one (the app of an app-bound caller), else null;
 * references apps (org_id, id) ON DELETE SET NULL (app_id), as documents do (migration
 * 0061_comparisons). The counts are null until the job is `done`.
 */
export const comparisons = pgTable(
  'comparisons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    baseDocumentId: uuid('base_document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    revisedDocumentId: uuid('revised_document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    state: text('state').notNull().default('queued'),
    result: jsonb('result'),
    /** Why a failed comparison failed (user-facing), null otherwise. */
    error: text('error'),
    substantiveChanges: integer('substantive_changes'),
    formatChanges: integer('format_changes'),
    moves: integer('moves'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('comparisons_org_created_idx').on(
      t.orgId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('comparisons_app_idx').on(t.appId),
    index('comparisons_base_document_idx').on(t.baseDocumentId),
    index('comparisons_revised_document_idx').on(t.revisedDocumentId),
    check('comparisons_state_check', sql`state IN ('queued', 'running', 'done', 'failed')`),
  ],
)

/**
 * Retention policies (issue 45, decision 0148): how long an organisation keeps one kind of data
 * (`kind`: one of RETENTION_KINDS of server/features/retention/retention-kinds.ts), for the whole
 * organisation (`app_id` null, its default) or for one app (a matter), whose policy beats the
 * organisation's for that app's items. `keep_days` null keeps forever; else an item whose last
 * change is older than that many days (1–36,500, a check) is deleted by the daily retention job.
 * One policy per (organisation, app or none, kind); an app's policies go with the app.
 */
export const retentionPolicies = pgTable(
  'retention_policies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    kind: text('kind').notNull(),
    keepDays: integer('keep_days'),
    setBy: text('set_by').references(() => user.id, { onDelete: 'set null' }),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('retention_policies_scope_key').on(t.orgId, t.appId, t.kind).nullsNotDistinct(),
    foreignKey({
      columns: [t.orgId, t.appId],
      foreignColumns: [apps.orgId, apps.id],
      name: 'retention_policies_app_fk',
    }).onDelete('cascade'),
    check(
      'retention_policies_kind_check',
      sql`kind IN ('documents', 'recordings', 'conversations', 'storage_objects', 'audit_entries')`,
    ),
    check(
      'retention_policies_keep_days_check',
      sql`keep_days IS NULL OR keep_days BETWEEN 1 AND 36500`,
    ),
    // Storage objects and audit entries have no app: only the organisation's policy reaches them.
    check(
      'retention_policies_app_kind_check',
      sql`app_id IS NULL OR kind IN ('documents', 'recordings', 'conversations')`,
    ),
  ],
)

/**
 * The deletion report (issue 45, decision 0148): one row per item the retention job deleted (a
 * document, recording, conversation or stored object, `item_count` 1), or per batch of audit
 * entries (`target_id` null, `item_count` the batch's size), with the policy that made it due and
 * that policy's days at the time. Kept apart from the audit log so that an "audit entries" policy
 * never deletes the record of what retention deleted; written once (SELECT and INSERT only), it
 * goes with its organisation. `title` is the item's name (a document's or recording's title, an
 * object's name), never its content.
 */
export const retentionDeletions = pgTable(
  'retention_deletions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    /** The item's app when it was deleted (no foreign key: the app may go later, the row stays). */
    appId: uuid('app_id'),
    /** The policy (no foreign key: the policy may be cleared later, the row stays). */
    policyId: uuid('policy_id').notNull(),
    policyKeepDays: integer('policy_keep_days').notNull(),
    /** The retention job that deleted it. */
    jobId: uuid('job_id'),
    kind: text('kind').notNull(),
    targetId: text('target_id'),
    title: text('title'),
    itemCount: integer('item_count').notNull().default(1),
    lastChangedAt: timestamp('last_changed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('retention_deletions_org_deleted_idx').on(t.orgId, t.deletedAt, t.id),
    check(
      'retention_deletions_kind_check',
      sql`kind IN ('documents', 'recordings', 'conversations', 'storage_objects', 'audit_entries')`,
    ),
    check('retention_deletions_count_check', sql`item_count >= 1`),
  ],
)

/**
 * Playbooks (issue 46, decision 0153): the firm's standard positions per clause type, owned by
 * the organisation (no app: a playbook serves every matter). `current_version` is the number of
 * the approved version checks use by default; null until one is approved. Its versions are
 * `playbook_versions`; deleting a playbook deletes them and their checks (migration 0066).
 */
export const playbooks = pgTable(
  'playbooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    currentVersion: integer('current_version'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('playbooks_org_created_idx').on(t.orgId, t.createdAt.desc(), t.id.desc()),
    check('playbooks_name_check', sql`char_length(name) BETWEEN 1 AND 200`),
  ],
)

/**
 * One version of a playbook: its positions (server/playbooks/positions.ts, the published JSON
 * Schema playbook.schema.json) numbered from 1 within the playbook. A draft until approved; once
 * `approved_at` is set the row is frozen (a trigger refuses any UPDATE of an approved version,
 * migration 0066), so a check always names the exact positions it was judged by.
 */
export const playbookVersions = pgTable(
  'playbook_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    playbookId: uuid('playbook_id')
      .notNull()
      .references(() => playbooks.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    positions: jsonb('positions').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    approvedBy: text('approved_by').references(() => user.id, { onDelete: 'set null' }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
  },
  (t) => [
    unique('playbook_versions_number_key').on(t.playbookId, t.number),
    check('playbook_versions_number_check', sql`number >= 1`),
  ],
)

/**
 * A document checked against one playbook version (server/playbooks/check-playbook.ts): per
 * position compliant, fallback N, deviation or missing, with its citation, the deciding rule and
 * a suggested redline, stored in `results`. Derived data: it goes with its document or its
 * playbook (cascades). `app_id` is the document's app (an app-bound caller's), as comparisons
 * have it; references apps (org_id, id) ON DELETE SET NULL (app_id) (migration 0066).
 */
export const playbookChecks = pgTable(
  'playbook_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    appId: uuid('app_id'),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    playbookId: uuid('playbook_id')
      .notNull()
      .references(() => playbooks.id, { onDelete: 'cascade' }),
    playbookVersionId: uuid('playbook_version_id')
      .notNull()
      .references(() => playbookVersions.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('done'),
    results: jsonb('results'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('playbook_checks_playbook_created_idx').on(t.playbookId, t.createdAt.desc(), t.id.desc()),
    index('playbook_checks_document_idx').on(t.documentId),
    index('playbook_checks_version_idx').on(t.playbookVersionId),
    index('playbook_checks_app_idx').on(t.appId),
    check('playbook_checks_status_check', sql`status IN ('done', 'failed')`),
  ],
)
