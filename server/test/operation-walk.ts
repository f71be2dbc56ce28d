/**
 * The walk over the OpenAPI document shared by the tests that must cover every route without a
 * hand list (the authorisation walk, server/auth/route-roles.test.ts; the audit walk,
 * server/audit/audit-walk.test.ts): the operations as the document declares them, and a request
 * for each, with real ids for its path parameters and a valid body where one is known.
 */
import { randomUUID } from 'node:crypto'
import { expect, onTestFinished } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { PDFDocument } from 'pdf-lib'
import type { InjectOptions } from 'fastify'
import { withTenant } from '../db/tenant'
import { insertJob } from '../jobs/job-service'
import {
  comparisons,
  analyses,
  playbookChecks,
  playbooks,
  playbookVersions,
  conversations,
  documents,
  invitation,
  jobs,
  member,
  orgSettings,
  recordings,
  reviewCells,
  reviewColumns,
  reviewRows,
  reviews,
  ssoProvider,
  user,
} from '../db/schema'
import { createFsBlobStore } from '../blob/fs-blob-store'
import { pcmToWav } from '../ai/speech/audio'
import {
  APP_REACH_EXTENSION,
  MIN_ROLE_EXTENSION,
  REQUIRED_SCOPE_EXTENSION,
  SCOPE_EXTENSION,
  SESSION_ONLY_EXTENSION,
} from '../auth/route-roles'
import { APP_FIELDS } from '../http/app-reach'
import type { TestApp, TestMember } from './test-app'
import { uploadForm } from './sample-files'
import { compareTexts } from '../compare/compare-texts'
import { storeComparison } from '../features/comparisons/stored-comparison'
import { mintToken } from './mint-token'
import { analyzeLocal } from '../ai/analyzer/local/analyze-local'

/**
 * A new OIDC provider with explicit endpoints on a public name that is never fetched (the walk
 * registers it; nobody signs in through it), for a fresh domain.
 */
const ssoProviderBody = () => ({
  issuer: 'https://idp.walk.example',
  endpoints: {
    authorization: 'https://idp.walk.example/authorize',
    token: 'https://idp.walk.example/token',
    jwks: 'https://idp.walk.example/jwks',
  },
  clientId: 'walk-client',
  clientSecret: 'walk-secret',
  domains: [`walk-${randomUUID().slice(0, 8)}.example`],
})

/** One operation of the OpenAPI document, with its declared minimum role and scope. */
export interface Operation {
  method: string
  path: string
  operationId: string
  minRole: unknown
  scope: unknown
  /** Whether only a person signed in may call it (`x-session-only`). */
  sessionOnly: boolean
  /** Its `security`: the schemes it promises to accept, each with the scopes it needs. */
  security: unknown
  /** The scope a credential needs (`x-required-scope`). */
  requiredScope: unknown
  /** How an app-bound credential may use it (`x-app-reach`: `own` or `organisation`). */
  appReach: unknown
  /**
   * Where its input may name an app (APP_FIELDS): a query parameter or a property of its JSON
   * body its schema declares, and every such name as a field of its multipart form.
   */
  appFields: { in: 'query' | 'body' | 'form'; name: string }[]
}

type OpenApiSchema = { $ref?: string; properties?: Record<string, unknown> }
type OpenApiOperation = Record<string, unknown> & {
  parameters?: { in: string; name: string }[]
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> }
}

/** The app fields of `op` (Operation.appFields), its JSON body schema read through `schemas`. */
function appFieldsOf(
  op: OpenApiOperation,
  schemas: Record<string, OpenApiSchema>,
): Operation['appFields'] {
  const names: readonly string[] = APP_FIELDS
  const inQuery = (op.parameters ?? [])
    .filter((p) => p.in === 'query' && names.includes(p.name))
    .map((p) => ({ in: 'query' as const, name: p.name }))
  let body = op.requestBody?.content?.['application/json']?.schema
  if (body?.$ref) body = schemas[body.$ref.replace('#/components/schemas/', '')]
  const inBody = Object.keys(body?.properties ?? {})
    .filter((name) => names.includes(name))
    .map((name) => ({ in: 'body' as const, name }))
  // A form is read by readMultipart, which checks every field of these names, whatever the
  // route reads: each of them, on every operation taking a form.
  const inForm = op.requestBody?.content?.['multipart/form-data']
    ? names.map((name) => ({ in: 'form' as const, name }))
    : []
  return [...inQuery, ...inBody, ...inForm]
}

/** Every operation of the app's `/api/openapi.json`, read at test time. */
export async function readOperations(t: TestApp): Promise<Operation[]> {
  const openApi = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>
    components?: { schemas?: Record<string, OpenApiSchema> }
  }
  const schemas = openApi.components?.schemas ?? {}
  return Object.entries(openApi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: String(op.operationId),
      minRole: op[MIN_ROLE_EXTENSION],
      scope: op[SCOPE_EXTENSION],
      sessionOnly: op[SESSION_ONLY_EXTENSION] === true,
      security: op.security,
      requiredScope: op[REQUIRED_SCOPE_EXTENSION],
      appReach: op[APP_REACH_EXTENSION],
      appFields: appFieldsOf(op, schemas),
    })),
  )
}

/** A request as `app.inject` takes it, and whether it is valid enough to expect a 2xx. */
export interface WalkRequest {
  request: { method: 'GET'; url: string; payload?: InjectOptions['payload'] }
  exact: boolean
}

/**
 * Request builders for operations on `org`'s organisation (its owner): `requestFor(op, actor)`
 * creates what the path names (a document, entity, job, recording, conversation, review made by
 * `actor`; a member or a pending invitation of the organisation; an API key or a tenant token, made by the owner)
 * and a valid body where the operation needs one (`exact`), else `{}`; a path parameter of an
 * unknown kind gets a random UUID (then not `exact`). Leaving the organisation is walked by the
 * actor itself, who is given its membership back when the test ends (so the walk's other tests
 * find it as it was). The organisation has
 * external assistants turned on (as its owner would to connect one), so the operations behind
 * that switch are walked like the others; connect-gpt.test.ts covers the switch off.
 */
export function operationRequests(t: TestApp, org: TestMember) {
  const orgUrl = `/api/v1/orgs/${org.orgId}`
  let switchedOn: Promise<unknown> | undefined
  const externalAssistantsOn = () =>
    (switchedOn ??= withTenant(t.database.db, { orgId: org.orgId }, (tx) =>
      tx
        .insert(orgSettings)
        .values({ orgId: org.orgId, externalAssistantsEnabled: true })
        .onConflictDoNothing(),
    ))

  /** Uploads a document (with its file) as `actor`, so deleting it is within even a member's rights. */
  async function documentOf(actor: TestMember): Promise<string> {
    const contract = new TextEncoder().encode(
      'Walk contract\nThe Supplier shall deliver the goods.',
    )
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/documents`,
      headers: actor.headers,
      payload: uploadForm(contract, 'walk-contract.txt'),
    })
    expect(res.statusCode).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** Uploads a scanned PDF (one blank page: no text layer, so it is read by OCR) as `actor`. */
  async function scanOf(actor: TestMember): Promise<string> {
    const scan = await PDFDocument.create()
    scan.addPage([612, 792])
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/documents`,
      headers: actor.headers,
      payload: uploadForm(await scan.save(), 'walk-scan.pdf'),
    })
    expect(res.statusCode, res.body).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** Operations whose document must be of a kind of its own (else documentOf's text upload). */
  const DOCUMENT_MAKERS: Record<string, (actor: TestMember) => Promise<string>> = {
    startDocumentOcr: scanOf,
  }

  /** An entity `actor` created in the organisation. */
  async function entityOf(actor: TestMember): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/entities`,
      headers: actor.headers,
      payload: { name: 'Walk entity' },
    })
    expect(res.statusCode).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** A job `actor` queued in the organisation, not to run before tomorrow. */
  async function jobOf(actor: TestMember): Promise<string> {
    const principal = {
      orgId: org.orgId,
      userId: actor.userId,
      role: 'member',
      actorType: 'user',
    } as const
    // Not before tomorrow: the app's job runner would otherwise claim it (at once on PostgreSQL,
    // where the insert's NOTIFY wakes it) and it could end before the operation acts on it.
    const job = await withTenant(t.database.db, principal, async (tx) => {
      const queued = await insertJob(tx, principal, {
        kind: 'document-passages',
        input: { documentId: randomUUID() },
      })
      await tx
        .update(jobs)
        .set({ runAfter: new Date(Date.now() + 86_400_000) })
        .where(eq(jobs.id, queued.id))
      return queued
    })
    return job.id
  }

  /**
   * A finished export job of the organisation and its stored archive (a few bytes: the walk
   * checks who may download it, not what it holds).
   */
  async function exportJobOf(actor: TestMember): Promise<string> {
    const principal = {
      orgId: org.orgId,
      userId: actor.userId,
      role: 'owner',
      actorType: 'user',
    } as const
    // Queued and finished in one transaction, so the runner never claims it.
    const jobId = await t.database.db.transaction(async (tx) => {
      const job = await insertJob(tx, principal, {
        kind: 'tenant-export',
        input: { includeEmbeddings: false },
      })
      await tx
        .update(jobs)
        .set({
          status: 'succeeded',
          result: { fileName: 'lexdesk-walk.zip', sizeBytes: 4, counts: {} },
        })
        .where(eq(jobs.id, job.id))
      return job.id
    })
    await createFsBlobStore(t.blobDir).putStream(
      `orgs/${org.orgId}/exports/${jobId}.zip`,
      [new Uint8Array([0x50, 0x4b, 5, 6])],
      'application/zip',
    )
    return jobId
  }

  /** Operations whose job must be of a kind or state of its own (else jobOf's queued job). */
  const JOB_MAKERS: Record<string, (actor: TestMember) => Promise<string>> = {
    getExportArchive: exportJobOf,
  }

  /** A recording `actor` made in the organisation (a stored file and its row). */
  async function recordingOf(actor: TestMember): Promise<string> {
    const principal = { orgId: org.orgId } as const
    const fileKey = `orgs/${org.orgId}/voice-recordings/${actor.userId}/${Date.now()}.webm`
    await createFsBlobStore(t.blobDir).putStream(
      fileKey,
      [new Uint8Array([26, 69, 223, 163])],
      'audio/webm',
    )
    const [row] = await withTenant(t.database.db, principal, (tx) =>
      tx
        .insert(recordings)
        .values({
          orgId: org.orgId,
          title: 'Walk memo',
          fileKey,
          mimeType: 'audio/webm',
          sizeBytes: 4,
          createdBy: actor.userId,
        })
        .returning({ id: recordings.id }),
    )
    return row?.id ?? ''
  }

  /** A conversation `actor` started in the organisation. */
  async function conversationOf(actor: TestMember): Promise<string> {
    const [row] = await withTenant(t.database.db, { orgId: org.orgId }, (tx) =>
      tx
        .insert(conversations)
        .values({ orgId: org.orgId, createdBy: actor.userId })
        .returning({ id: conversations.id }),
    )
    return row?.id ?? ''
  }

  /**
   * A comparison `actor` made of two documents of theirs, written directly as done with the
   * engine's stored result (no job queued: the walk checks who may act on it, and its redlines
   * can be built).
   */
  async function comparisonOf(actor: TestMember): Promise<string> {
    const baseId = await documentOf(actor)
    const revisedId = await documentOf(actor)
    return withTenant(t.database.db, { orgId: org.orgId }, async (tx) => {
      const [text] = await tx
        .select({ content: documents.content })
        .from(documents)
        .where(eq(documents.id, baseId))
      const content = text?.content ?? ''
      const [row] = await tx
        .insert(comparisons)
        .values({
          orgId: org.orgId,
          baseDocumentId: baseId,
          revisedDocumentId: revisedId,
          state: 'done',
          result: storeComparison(compareTexts(content, content, { notes: false })),
          substantiveChanges: 0,
          formatChanges: 0,
          moves: 0,
          createdBy: actor.userId,
        })
        .returning({ id: comparisons.id })
      return row?.id ?? ''
    })
  }

  /**
   * A playbook `actor` made, with a draft version 1 of no positions, written directly (the walk
   * checks who may act on it); its ids are kept for a check of it (checkOf).
   */
  let lastPlaybook: { id: string; versionId: string } | undefined
  async function playbookOf(actor: TestMember): Promise<string> {
    return withTenant(t.database.db, { orgId: org.orgId }, async (tx) => {
      const [playbook] = await tx
        .insert(playbooks)
        .values({ orgId: org.orgId, name: 'Walk playbook', createdBy: actor.userId })
        .returning({ id: playbooks.id })
      const id = playbook?.id ?? ''
      const [version] = await tx
        .insert(playbookVersions)
        .values({
          orgId: org.orgId,
          playbookId: id,
          number: 1,
          positions: [],
          createdBy: actor.userId,
        })
        .returning({ id: playbookVersions.id })
      lastPlaybook = { id, versionId: version?.id ?? '' }
      return id
    })
  }

  /** A document of `actor`'s with a full analysis (the local engine's), written directly. */
  async function analysedDocumentOf(actor: TestMember): Promise<string> {
    const documentId = await documentOf(actor)
    await withTenant(t.database.db, { orgId: org.orgId }, async (tx) => {
      const [doc] = await tx
        .select({ content: documents.content })
        .from(documents)
        .where(eq(documents.id, documentId))
      const result = analyzeLocal(doc?.content ?? '', 'full')
      await tx.insert(analyses).values({
        orgId: org.orgId,
        documentId,
        kind: 'full',
        engine: result.engine,
        model: result.model,
        result,
        createdBy: actor.userId,
      })
    })
    return documentId
  }

  /** A check of the last walk playbook against a document of `actor`'s, written directly. */
  async function playbookCheckOf(actor: TestMember): Promise<string> {
    const documentId = await documentOf(actor)
    const playbook = lastPlaybook ?? { id: '', versionId: '' }
    return withTenant(t.database.db, { orgId: org.orgId }, async (tx) => {
      const [row] = await tx
        .insert(playbookChecks)
        .values({
          orgId: org.orgId,
          documentId,
          playbookId: playbook.id,
          playbookVersionId: playbook.versionId,
          results: { results: [], counts: { compliant: 0, fallback: 0, deviation: 0, missing: 0 } },
          createdBy: actor.userId,
        })
        .returning({ id: playbookChecks.id })
      return row?.id ?? ''
    })
  }

  /**
   * A review `actor` made, of one document and one column, with its one pending cell, written
   * directly (no fill job queued: the walk checks who may act on it, not its answers). The ids
   * of its column and cell are kept for the path's later parameters.
   */
  let lastReview: { columnId: string; cellId: string } | undefined
  async function reviewOf(actor: TestMember): Promise<string> {
    const documentId = await documentOf(actor)
    return withTenant(t.database.db, { orgId: org.orgId }, async (tx) => {
      const base = { orgId: org.orgId, appId: null }
      const [review] = await tx
        .insert(reviews)
        .values({ ...base, name: 'Walk review', rowSource: 'selection', createdBy: actor.userId })
        .returning({ id: reviews.id })
      const reviewId = review?.id ?? ''
      const [column] = await tx
        .insert(reviewColumns)
        .values({
          ...base,
          reviewId,
          position: 0,
          label: 'Parties',
          presetKey: 'term:parties',
          answerType: 'party',
        })
        .returning({ id: reviewColumns.id })
      const [row] = await tx
        .insert(reviewRows)
        .values({ ...base, reviewId, documentId, position: 0 })
        .returning({ id: reviewRows.id })
      const [cell] = await tx
        .insert(reviewCells)
        .values({
          ...base,
          reviewId,
          rowId: row?.id ?? '',
          columnId: column?.id ?? '',
          documentId,
          rowPosition: 0,
          columnPosition: 0,
        })
        .returning({ id: reviewCells.id })
      lastReview = { columnId: column?.id ?? '', cellId: cell?.id ?? '' }
      return reviewId
    })
  }

  /** A new user (never signed in) who is a member of the organisation; the membership's id. */
  async function memberOf(role: 'member' | 'owner' = 'member'): Promise<string> {
    const userId = randomUUID()
    await t.database.db
      .insert(user)
      .values({ id: userId, name: 'Walk colleague', email: `walk-${userId}@example.test` })
    const id = randomUUID()
    await t.database.db.insert(member).values({ id, organizationId: org.orgId, userId, role })
    return id
  }

  /** A pending invitation of the organisation, sent by `actor`. */
  async function invitationOf(actor: TestMember): Promise<string> {
    const id = randomUUID()
    await t.database.db.insert(invitation).values({
      id,
      organizationId: org.orgId,
      email: `invited-${id}@example.test`,
      role: 'member',
      expiresAt: new Date(Date.now() + 24 * 3600_000),
      inviterId: actor.userId,
    })
    return id
  }

  /**
   * Lets `actor` leave for this test only: an owner gets a co-owner (the last owner may not
   * leave), and when the test ends the co-owner goes and `actor`'s membership comes back.
   */
  async function leavingFor(actor: TestMember): Promise<void> {
    const [own] = await t.database.db
      .select()
      .from(member)
      .where(and(eq(member.organizationId, org.orgId), eq(member.userId, actor.userId)))
    if (!own) return
    const coOwner = own.role === 'owner' ? await memberOf('owner') : undefined
    onTestFinished(async () => {
      if (coOwner) await t.database.db.delete(member).where(eq(member.id, coOwner))
      await t.database.db.insert(member).values(own).onConflictDoNothing()
    })
  }

  /** An API key of the organisation, made by its owner (only admins and owners make keys). */
  async function apiKeyOf(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/api-keys`,
      headers: org.headers,
      payload: { name: 'Walk key' },
    })
    expect(res.statusCode).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** A storage bucket of the organisation, made by its owner (only admins make buckets). */
  async function bucketOf(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/storage/buckets`,
      headers: org.headers,
      payload: { name: `walk-${randomUUID().slice(0, 8)}` },
    })
    expect(res.statusCode).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** An object `actor` uploaded to a new bucket of the organisation. */
  async function objectOf(actor: TestMember): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/storage/buckets/${await bucketOf()}/objects`,
      headers: actor.headers,
      payload: uploadForm(new TextEncoder().encode('Walk object'), 'walk.txt'),
    })
    expect(res.statusCode).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** A legal hold the organisation's owner placed on a new document (only admins place holds). */
  async function legalHoldOf(actor: TestMember): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl}/legal-holds`,
      headers: org.headers,
      payload: { targetKind: 'document', targetId: await documentOf(actor), reason: 'Walk hold' },
    })
    expect(res.statusCode).toBe(201)
    return (res.json() as { id: string }).id
  }

  /** A retention policy the organisation's owner set (only admins set them): keep documents 30 days. */
  async function retentionPolicyOf(): Promise<string> {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${orgUrl}/retention-policies`,
      headers: org.headers,
      payload: { kind: 'documents', keepDays: 30 },
    })
    expect(res.statusCode).toBe(200)
    return (res.json() as { id: string }).id
  }

  /**
   * An OIDC provider the organisation's owner registered, with explicit endpoints (nothing is
   * fetched), its domain unverified (its provider id).
   */
  async function ssoProviderOf(): Promise<string> {
    const providerId = `sso-walk-${randomUUID()}`
    const body = ssoProviderBody()
    // Written as the plugin writes a registration (its model's fields), outside the per-organisation limit.
    await t.database.db.insert(ssoProvider).values({
      id: randomUUID(),
      providerId,
      issuer: body.issuer,
      domain: body.domains.join(','),
      organizationId: org.orgId,
      userId: org.userId,
      oidcConfig: JSON.stringify({
        issuer: body.issuer,
        clientId: body.clientId,
        clientSecret: body.clientSecret,
        authorizationEndpoint: body.endpoints.authorization,
        tokenEndpoint: body.endpoints.token,
        jwksEndpoint: body.endpoints.jwks,
        pkce: true,
      }),
    })
    return providerId
  }

  /** A tenant token the organisation's owner minted (its jti). */
  const tokenOf = async () => (await mintToken(t, org, { ttl_seconds: 600 })).claims.jti

  /** A minimal valid body per operation that needs one; others get `{}` (and may answer 400). */
  const EXAMPLE_BODIES: Record<
    string,
    (actor: TestMember) => Promise<{ payload: InjectOptions['payload'] }>
  > = {
    createTextDocument: async () => ({
      payload: { title: 'Walk memo', content: 'Please review.' },
    }),
    uploadDocument: async () => ({
      payload: uploadForm(new TextEncoder().encode('Memo\nPlease review.'), 'memo.txt'),
    }),
    updateDocument: async () => ({ payload: { title: 'Walk contract, renamed' } }),
    renameConversation: async () => ({ payload: { title: 'Walk conversation, named' } }),
    setWeActFor: async () => ({ payload: { weActFor: null } }),
    deleteDocuments: async (actor) => ({ payload: { ids: [await documentOf(actor)] } }),
    createApp: async () => ({ payload: { slug: `walk-${randomUUID().slice(0, 8)}` } }),
    // The admin scope only: a real admin key creates it too, and a key holds no scope its creator lacks.
    createApiKey: async () => ({ payload: { name: 'Walk key', scopes: 'admin' } }),
    analyzeDocument: async () => ({ payload: { kind: 'summarize' } }),
    exportOrganization: async () => ({ payload: { includeEmbeddings: false } }),
    importOrganization: async () => {
      // An empty ZIP (its end-of-central-directory record alone): accepted, then refused by the
      // job's archive check (no manifest), nothing written.
      const form = new FormData()
      form.append('create_org_if_missing', 'true')
      form.append('org_name', 'Walk import')
      const emptyZip = new Uint8Array(22)
      emptyZip.set([0x50, 0x4b, 0x05, 0x06])
      form.append('zip_file', new Blob([emptyZip]), 'walk.zip')
      return { payload: form }
    },
    cloneOrganization: async () => ({
      payload: { target_org_name: 'Walk clone', clone_buckets: false },
    }),
    cancelJob: async () => ({ payload: {} }),
    acknowledgeConsent: async () => ({ payload: {} }),
    createEntity: async () => ({ payload: { name: 'Walk client' } }),
    updateEntity: async () => ({ payload: { name: 'Walk client, renamed' } }),
    deleteEntities: async (actor) => ({ payload: { ids: [await entityOf(actor)] } }),
    importEntities: async () => ({
      payload: uploadForm(new TextEncoder().encode('name,type\nWalk import,client\n'), 'walk.csv'),
    }),
    uploadRecording: async (actor) => {
      const consent = await t.app.inject({
        method: 'POST',
        url: `${orgUrl}/voice/consent`,
        headers: actor.headers,
      })
      expect(consent.statusCode).toBe(200)
      // One second of 16 kHz silence: a well-formed recording, never transcribed here.
      return { payload: uploadForm(pcmToWav(new Uint8Array(32_000)), 'walk.wav') }
    },
    searchPassages: async () => ({ payload: { query: 'delivery of goods' } }),
    semanticSearch: async () => ({
      payload: { _emb: JSON.stringify(Array(384).fill(0.05)), _k: 3 },
    }),
    embedText: async () => ({ payload: { text: 'delivery of goods' } }),
    startDocumentOcr: async () => ({ payload: {} }),
    mintTenantToken: async () => ({ payload: { ttl_seconds: 600, scope: 'admin' } }),
    chat: async () => ({
      payload: { messages: [{ role: 'user', content: 'What is delivered?' }] },
    }),
    inviteMember: async () => ({
      payload: { email: `walk-${randomUUID()}@example.test`, role: 'member' },
    }),
    resendInvitation: async () => ({ payload: {} }),
    changeMemberRole: async () => ({ payload: { role: 'admin' } }),
    leaveOrganization: async (actor) => {
      await leavingFor(actor)
      return { payload: {} }
    },
    setExternalAssistants: async () => ({ payload: { enabled: true } }),
    listRecentConversations: async () => ({ payload: { lim: 5 } }),
    logGptAction: async () => ({ payload: { action: 'walked', target_type: 'walk' } }),
    createBucket: async () => ({ payload: { name: `walk-${randomUUID().slice(0, 8)}` } }),
    uploadObject: async () => ({
      payload: uploadForm(new TextEncoder().encode('Walk upload'), 'walk-upload.txt'),
    }),
    signObjectUrl: async () => ({ payload: {} }),
    createReview: async (actor) => ({
      payload: {
        name: 'Walk review',
        rows: { source: 'selection', documentIds: [await documentOf(actor)] },
        columns: [{ preset: 'term:parties' }],
      },
    }),
    renameReview: async () => ({ payload: { name: 'Walk review, renamed' } }),
    createComparison: async (actor) => ({
      payload: {
        baseDocumentId: await documentOf(actor),
        revisedDocumentId: await documentOf(actor),
      },
    }),
    addReviewColumn: async () => ({ payload: { preset: 'term:governingLaw' } }),
    createPlaybook: async () => ({ payload: { name: 'Walk playbook' } }),
    importPlaybook: async () => ({
      payload: { format: 'lexdesk-playbook/1', name: 'Walk import', positions: [] },
    }),
    updatePlaybook: async () => ({ payload: { name: 'Walk playbook, renamed' } }),
    createPlaybookVersion: async () => ({ payload: { positions: [] } }),
    updatePlaybookVersion: async () => ({ payload: { positions: [] } }),
    approvePlaybookVersion: async () => ({ payload: undefined }),
    copyPlaybookStarter: async () => ({ payload: undefined }),
    // The walk's playbook has a draft version 1 (playbookOf), named here: no approval needed.
    createPlaybookCheck: async (actor) => ({
      payload: { documentId: await analysedDocumentOf(actor), version: 1 },
    }),
    overrideReviewCell: async () => ({
      payload: { override: { answer: { type: 'party', names: ['Walk Ltd'] }, note: null } },
    }),
    verifyReviewCell: async () => ({ payload: { verified: true } }),
    retryReviewCell: async () => ({ payload: {} }),
    retryReviewColumn: async () => ({ payload: {} }),
    setRetentionPolicy: async () => ({ payload: { kind: 'documents', keepDays: 3650 } }),
    runRetention: async () => ({ payload: {} }),
    createSsoProvider: async () => ({ payload: ssoProviderBody() }),
    updateSsoProvider: async () => ({ payload: { defaultRole: 'admin' } }),
    // Attested by the organisation's owner (the audit walk's actor); anyone else asks DNS (422).
    verifySsoDomain: async (actor) => ({
      payload: { method: actor.userId === org.userId ? 'attested' : 'dns' },
    }),
    setRequireSso: async () => ({ payload: { required: false } }),
    placeLegalHold: async (actor) => ({
      payload: { targetKind: 'document', targetId: await documentOf(actor), reason: 'Walk hold' },
    }),
  }

  /** The request `op` as `actor` would send it to the organisation (see operationRequests). */
  async function requestFor(op: Operation, actor: TestMember): Promise<WalkRequest> {
    await externalAssistantsOn()
    let placeholder = false
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '')
    let url = op.path
    for (const name of names) {
      let value: string
      if (name === 'orgId') value = org.orgId
      else if (name === 'documentId')
        value = await (DOCUMENT_MAKERS[op.operationId] ?? documentOf)(actor)
      else if (name === 'jobId') value = await (JOB_MAKERS[op.operationId] ?? jobOf)(actor)
      else if (name === 'entityId') value = await entityOf(actor)
      else if (name === 'recordingId') value = await recordingOf(actor)
      else if (name === 'conversationId') value = await conversationOf(actor)
      else if (name === 'memberId') value = await memberOf()
      else if (name === 'invitationId') value = await invitationOf(actor)
      else if (name === 'keyId') value = await apiKeyOf()
      else if (name === 'jti') value = await tokenOf()
      else if (name === 'bucketId') value = await bucketOf()
      else if (name === 'objectId') value = await objectOf(actor)
      else if (name === 'reviewId') value = await reviewOf(actor)
      else if (name === 'comparisonId') value = await comparisonOf(actor)
      else if (name === 'playbookId') value = await playbookOf(actor)
      else if (name === 'version') value = '1'
      else if (name === 'checkId') value = await playbookCheckOf(actor)
      else if (name === 'starter') value = 'mutual-nda'
      else if (name === 'holdId') value = await legalHoldOf(actor)
      else if (name === 'policyId') value = await retentionPolicyOf()
      else if (name === 'providerId') value = await ssoProviderOf()
      else if (name === 'columnId' && lastReview) value = lastReview.columnId
      else if (name === 'cellId' && lastReview) value = lastReview.cellId
      else if (name === 'page') {
        // A valid page number, though a text document has no page images (409, not `exact`).
        value = '1'
        placeholder = true
      } else {
        value = randomUUID()
        placeholder = true
      }
      url = url.replace(`{${name}}`, value)
    }
    const needsBody = !['GET', 'HEAD', 'DELETE'].includes(op.method)
    const example = EXAMPLE_BODIES[op.operationId]
    const body = example ? await example(actor) : needsBody ? { payload: {} } : {}
    return {
      request: { method: op.method as 'GET', url, ...body },
      exact: !placeholder && (!needsBody || example !== undefined),
    }
  }

  return { requestFor }
}
