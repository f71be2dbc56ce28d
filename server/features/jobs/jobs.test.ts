import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { randomUUID } from 'node:crypto'
import { longContract } from '../../test/test-contracts'
import { jobs, recordings } from '../../db/schema'
import { appOf } from '../../test/app-of'
import { mintToken } from '../../test/mint-token'

let t: TestApp
let alice: TestMember
let mallory: TestMember
let documentId: string

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Jobs Firm')
  mallory = await signedInMember(t, 'Other Firm')
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${alice.orgId}/documents/text`,
    headers: alice.headers,
    payload: { title: 'Long master agreement', content: longContract(120_000) },
  })
  expect(res.statusCode).toBe(201)
  documentId = res.json().id
})
afterAll(() => t.close())

const jobsUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/jobs`

function startAnalysis(m: TestMember) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/documents/${documentId}/analyses`,
    headers: m.headers,
    payload: { kind: 'full' },
  })
}

async function jobOf(m: TestMember, jobId: string) {
  return (await t.app.inject({ url: `${jobsUrl(m)}/${jobId}`, headers: m.headers })).json()
}

/** Starts a full analysis of the long document and waits until its job succeeds; returns it. */
async function succeededAnalysisJob(m: TestMember): Promise<{ id: string }> {
  const { id } = (await startAnalysis(m)).json() as { id: string }
  await expect.poll(async () => (await jobOf(m, id)).status, { timeout: 30_000 }).toBe('succeeded')
  return { id }
}

describe('analysis of a long document as a background job', () => {
  it('answers 202 with a queued job that ends with the stored analysis', async () => {
    const res = await startAnalysis(alice)
    expect(res.statusCode).toBe(202)
    const job = res.json()
    expect(job).toMatchObject({ kind: 'analysis', subjectId: documentId, attempts: 0 })
    expect(['queued', 'running']).toContain(job.status)
    await expect
      .poll(() => jobOf(alice, job.id), { timeout: 30_000 })
      .toMatchObject({
        status: 'succeeded',
        progress: 1,
      })
    const { result } = await jobOf(alice, job.id)
    const analyses = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents/${documentId}/analyses`,
      headers: alice.headers,
    })
    expect(analyses.json().items.map((a: { id: string }) => a.id)).toContain(result.analysisId)
  })

  it("follows the job over the organisation's realtime socket until it ends, its progress never going back", async () => {
    // injectWS sends Sec-WebSocket-Version as a number, which ws refuses (realtime.test.ts).
    t.app.server.prependListener('upgrade', (req: { headers: Record<string, unknown> }) => {
      const version = req.headers['sec-websocket-version']
      if (typeof version === 'number') req.headers['sec-websocket-version'] = String(version)
    })
    const { id } = (await startAnalysis(alice)).json()
    const socket = await t.app.injectWS(`/api/v1/orgs/${alice.orgId}/realtime`, {
      headers: alice.headers,
    })
    const states: Array<{ status: string; progress: number }> = []
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; job?: (typeof states)[0] }
      if (message.type === 'job' && message.job) states.push(message.job)
    })
    socket.send(JSON.stringify({ type: 'follow', jobId: id }))
    await expect.poll(() => states.at(-1)?.status, { timeout: 30_000 }).toBe('succeeded')
    expect(states.at(-1)).toMatchObject({ status: 'succeeded', progress: 1 })
    const progress = states.map((e) => e.progress)
    expect(progress).toEqual([...progress].sort((x, y) => x - y))
    socket.terminate()
  })

  it("lists a document's jobs and filters by status and kind", async () => {
    await succeededAnalysisJob(alice)
    const res = await t.app.inject({
      url: `${jobsUrl(alice)}?subjectId=${documentId}&status=succeeded&kind=analysis`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().total).toBeGreaterThanOrEqual(1)
    expect(res.json().items.every((j: { status: string }) => j.status === 'succeeded')).toBe(true)
    expect(res.json().items.every((j: { kind: string }) => j.kind === 'analysis')).toBe(true)
    const none = await t.app.inject({
      url: `${jobsUrl(alice)}?subjectId=${documentId}&kind=entities-import`,
      headers: alice.headers,
    })
    expect(none.json()).toEqual({ items: [], total: 0, subjects: [] })
    const bad = await t.app.inject({ url: `${jobsUrl(alice)}?status=done`, headers: alice.headers })
    expect(bad.statusCode).toBe(400)
  })

  it('refuses to cancel a finished job with a 409 problem', async () => {
    const finished = await succeededAnalysisJob(alice)
    const res = await t.app.inject({
      method: 'POST',
      url: `${jobsUrl(alice)}/${finished.id}/cancel`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(409)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it("hides another organisation's job behind a 404", async () => {
    const { id } = (await startAnalysis(alice)).json() as { id: string }
    const res = await t.app.inject({
      url: `/api/v1/orgs/${mallory.orgId}/jobs/${id}`,
      headers: mallory.headers,
    })
    expect(res.statusCode).toBe(404)
    const list = await t.app.inject({ url: jobsUrl(mallory), headers: mallory.headers })
    expect(list.json()).toEqual({ items: [], total: 0, subjects: [] })
  })

  it('names the document each listed job works on, and no other organisation sees it', async () => {
    await succeededAnalysisJob(alice)
    const res = await t.app.inject({
      url: `${jobsUrl(alice)}?subjectId=${documentId}&kind=analysis`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().subjects).toEqual([
      { id: documentId, type: 'document', title: 'Long master agreement' },
    ])
    const other = await t.app.inject({
      url: `${jobsUrl(mallory)}?subjectId=${documentId}`,
      headers: mallory.headers,
    })
    expect(other.json().subjects).toEqual([])
    expect(other.body).not.toContain('Long master agreement')
  })

  it('serves a transcription job stored before its result named a summary job, typed by its kind', async () => {
    const [row] = await t.database.db
      .insert(jobs)
      .values({
        orgId: alice.orgId,
        kind: 'transcription',
        status: 'succeeded',
        progress: 1,
        input: { recordingId: randomUUID() },
        result: { recordingId: randomUUID(), documentId: randomUUID() },
      })
      .returning()
    const res = await t.app.inject({ url: `${jobsUrl(alice)}/${row!.id}`, headers: alice.headers })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      kind: 'transcription',
      status: 'succeeded',
      errorCode: null,
    })
    const listed = await t.app.inject({
      url: `${jobsUrl(alice)}?kind=transcription`,
      headers: alice.headers,
    })
    expect(listed.json().items.map((j: { id: string }) => j.id)).toContain(row!.id)
    const unknownKind = await t.app.inject({
      url: `${jobsUrl(alice)}?kind=poetry`,
      headers: alice.headers,
    })
    expect(unknownKind.statusCode).toBe(400)
  })
})

describe("an app-bound token's jobs (decision 0125: HTTP as strict as the realtime channel)", () => {
  /** A queued job of `m` on `subjectId` that the app's runner leaves alone (not before tomorrow). */
  async function queuedJob(m: TestMember, subjectId: string | null): Promise<string> {
    const [row] = await t.database.db
      .insert(jobs)
      .values({
        orgId: m.orgId,
        kind: 'document-passages',
        input: { documentId: randomUUID() },
        subjectId,
        createdBy: m.userId,
        runAfter: new Date(Date.now() + 86_400_000),
      })
      .returning({ id: jobs.id })
    return row!.id
  }

  async function documentIn(m: TestMember, appId: string): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/documents/text`,
      headers: m.headers,
      payload: { title: 'Side letter', content: 'The parties agree.', appId },
    })
    expect(res.statusCode, res.body).toBe(201)
    return (res.json() as { id: string }).id
  }

  it("reads, lists and cancels only its app's jobs; another app's and the organisation's are 404", async () => {
    const owner = await signedInMember(t, 'Jobs Apps Firm')
    const [appA, appB] = [await appOf(t, owner, 'jobs-a'), await appOf(t, owner, 'jobs-b')]
    const [recordingOfB] = await t.database.db
      .insert(recordings)
      .values({
        orgId: owner.orgId,
        appId: appB,
        title: 'Memo of app B',
        fileKey: `orgs/${owner.orgId}/voice-recordings/${randomUUID()}.webm`,
        mimeType: 'audio/webm',
        sizeBytes: 4,
        createdBy: owner.userId,
      })
      .returning({ id: recordings.id })
    const visible = [
      await queuedJob(owner, await documentIn(owner, appA)),
      await queuedJob(owner, appA), // an import into app A
    ]
    const hidden = [
      await queuedJob(owner, await documentIn(owner, appB)),
      await queuedJob(owner, recordingOfB!.id),
      await queuedJob(owner, appB),
      await queuedJob(owner, null), // the organisation's (an export, say)
      await queuedJob(owner, 'not-a-uuid'),
    ]
    const { token } = await mintToken(t, owner, { app_id: appA, scope: 'read,write' })
    const bound = { authorization: `Bearer ${token}` }

    for (const id of visible) {
      const res = await t.app.inject({ url: `${jobsUrl(owner)}/${id}`, headers: bound })
      expect(res.statusCode, res.body).toBe(200)
    }
    for (const id of hidden) {
      const res = await t.app.inject({ url: `${jobsUrl(owner)}/${id}`, headers: bound })
      expect(res.statusCode, res.body).toBe(404)
      expect(res.json()).toMatchObject({ code: 'job_not_found' })
      const cancel = await t.app.inject({
        method: 'POST',
        url: `${jobsUrl(owner)}/${id}/cancel`,
        headers: bound,
      })
      expect(cancel.statusCode, cancel.body).toBe(404)
    }

    const listed = await t.app.inject({ url: `${jobsUrl(owner)}?limit=100`, headers: bound })
    const page = listed.json() as { items: Array<{ id: string }>; total: number }
    const ids = page.items.map((job) => job.id)
    expect(ids).toEqual(expect.arrayContaining(visible))
    expect(ids.filter((id) => hidden.includes(id))).toEqual([])
    expect(page.total).toBe(ids.length)
    // The session (no app) still lists every job of its organisation.
    const all = await t.app.inject({ url: `${jobsUrl(owner)}?limit=100`, headers: owner.headers })
    expect((all.json() as { items: Array<{ id: string }> }).items.map((j) => j.id)).toEqual(
      expect.arrayContaining([...visible, ...hidden]),
    )

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `${jobsUrl(owner)}/${visible[0]}/cancel`,
      headers: bound,
    })
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    expect(cancelled.json()).toMatchObject({ id: visible[0], status: 'cancelled' })
  })
})

describe('the job of a 202 in the API description', () => {
  it('names the kind and result of the job each queueing route answers with, and Job is their union', async () => {
    type Schema = { $ref?: string; properties?: Record<string, Schema>; oneOf?: Schema[] }
    type Operation = {
      operationId: string
      responses: Record<string, { content?: Record<string, { schema: Schema }> }>
    }
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>
      components: { schemas: Record<string, Schema & { anyOf?: Schema[] }> }
    }
    const answered: Record<string, string | undefined> = {}
    for (const operations of Object.values(document.paths))
      for (const operation of Object.values(operations)) {
        const schema = operation.responses['202']?.content?.['application/json']?.schema
        if (schema) answered[operation.operationId] = (schema.properties?.job ?? schema).$ref
      }
    const ref = (name: string) => `#/components/schemas/${name}`
    expect(answered).toEqual({
      analyzeDocument: ref('AnalysisJob'),
      startDocumentOcr: ref('OcrJob'),
      importEntities: ref('EntitiesImportJob'),
      exportOrganization: ref('TenantExportJob'),
      importOrganization: ref('TenantImportJob'),
      cloneOrganization: ref('TenantCloneJob'),
      uploadRecording: ref('TranscriptionJob'),
      retryReviewColumn: ref('ReviewFillJob'),
      retryReviewCell: ref('ReviewFillJob'),
      createComparison: ref('ComparisonJob'),
      runRetention: ref('RetentionJob'),
    })
    const { schemas } = document.components
    expect(schemas.OcrJob?.properties?.kind).toMatchObject({ const: 'ocr' })
    const union = schemas.Job?.oneOf ?? schemas.Job?.anyOf ?? []
    expect(union.map((branch) => branch.$ref)).toEqual(
      [
        'AnalysisJob',
        'TranscriptionJob',
        'DocumentPassagesJob',
        'EntitiesImportJob',
        'OcrJob',
        'TenantExportJob',
        'TenantImportJob',
        'TenantCloneJob',
        'ReviewFillJob',
        'ComparisonJob',
        'RetentionJob',
      ].map(ref),
    )
  })
})
