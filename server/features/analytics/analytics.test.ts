/**
 * The dashboard's and analytics' figures (issue 30): a known set of events and jobs gives known
 * numbers through the API, for the organisation or one app of it, and another organisation's
 * never count; the rollups follow the real writes (a pasted document, a job the runner finishes).
 */
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { events, jobs } from '../../db/schema'
import { finishJob } from '../../jobs/job-store'
import { appOf } from '../../test/app-of'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'

const t = await buildTestApp()
afterAll(() => t.close())
const db = t.database.db

const DAY = 86_400_000
const daysAgo = (n: number) => new Date(Date.now() - n * DAY)

/** Writes an event straight into the log (as the superuser), `ago` days back. */
async function event(
  by: TestMember,
  kind: string,
  ago: number,
  extra: { appId?: string; actorId?: string | null } = {},
) {
  await db.insert(events).values({
    orgId: by.orgId,
    appId: extra.appId ?? null,
    kind,
    meta: {},
    actorId: extra.actorId === undefined ? by.userId : extra.actorId,
    createdAt: daysAgo(ago),
  })
}

/** A job of `by`'s organisation that ran `ms` milliseconds and then succeeded, `ago` days back. */
async function succeededJob(by: TestMember, ms: number, ago = 0, background = false) {
  const finishedAt = daysAgo(ago)
  const [row] = await db
    .insert(jobs)
    .values({
      orgId: by.orgId,
      kind: 'analysis',
      status: 'running',
      background,
      startedAt: new Date(finishedAt.getTime() - ms),
    })
    .returning({ id: jobs.id })
  await db.execute(
    sql`UPDATE jobs SET status = 'succeeded', finished_at = ${finishedAt} WHERE id = ${row!.id}`,
  )
}

const get = async (by: TestMember, path: string) => {
  const res = await t.app.inject({ url: `/api/v1/orgs/${by.orgId}/${path}`, headers: by.headers })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

describe('analytics usage', () => {
  it('counts a known set of events and jobs per period, never another organisation’s', async () => {
    const alice = await signedInMember(t, 'Usage Firm')
    const bob = await signedInWithRole(t, alice.orgId, 'member')
    const mallory = await signedInMember(t, 'Other Firm')
    await event(alice, 'analysis.finished', 0)
    await event(alice, 'analysis.finished', 0)
    await event(bob, 'document.uploaded', 0)
    await event(bob, 'document.pasted', 1)
    await event(alice, 'recording.uploaded', 3)
    await event(bob, 'analysis.finished', 40)
    await event(alice, 'entity.created', 2, { actorId: null })
    await succeededJob(alice, 1000)
    await succeededJob(alice, 3000, 2)
    await succeededJob(alice, 10_000, 0, true) // background indexing: nobody waits on it
    await succeededJob(alice, 50_000, 60)
    for (let i = 0; i < 5; i++) await event(mallory, 'analysis.finished', 0)
    await event(mallory, 'recording.uploaded', 0)
    await succeededJob(mallory, 100_000)

    const week = await get(alice, 'analytics/usage?days=7')
    expect(week.totals).toEqual({
      documentsAdded: 2,
      documentsAnalysed: 2,
      voiceRecordings: 1,
      activeUsers: 2,
      jobsSucceeded: 2,
      avgProcessingMs: 2000,
    })
    expect(week.series).toHaveLength(7)
    expect(week.series.at(-1)).toEqual({
      day: new Date().toISOString().slice(0, 10),
      documentsAdded: 1,
      documentsAnalysed: 2,
      voiceRecordings: 0,
      activeUsers: 2,
    })
    expect(week.series.at(-4)).toMatchObject({ voiceRecordings: 1, activeUsers: 1 })
    expect(week.to).toBe(new Date().toISOString().slice(0, 10))

    const quarter = await get(alice, 'analytics/usage?days=90')
    expect(quarter.series).toHaveLength(90)
    expect(quarter.totals).toMatchObject({
      documentsAnalysed: 3,
      jobsSucceeded: 3,
      avgProcessingMs: Math.round(54_000 / 3),
    })
    // The default period is the last 30 days.
    expect((await get(alice, 'analytics/usage')).days).toBe(30)
  })

  it('files figures under the app asked for, jobs organisation-wide', async () => {
    const alice = await signedInMember(t, 'Apps Firm')
    const litigation = await appOf(t, alice, 'litigation')
    const tax = await appOf(t, alice, 'tax')
    await event(alice, 'analysis.finished', 0, { appId: litigation })
    await event(alice, 'analysis.finished', 0, { appId: tax })
    await event(alice, 'analysis.finished', 0)
    await succeededJob(alice, 4000)
    const inApp = await get(alice, `analytics/usage?days=7&appId=${litigation}`)
    expect(inApp.totals).toMatchObject({
      documentsAnalysed: 1,
      activeUsers: 1,
      avgProcessingMs: 4000,
    })
    expect((await get(alice, 'analytics/usage?days=7')).totals.documentsAnalysed).toBe(3)
    // Another organisation's app id finds nothing of it.
    const mallory = await signedInMember(t, 'Prying Firm')
    expect((await get(mallory, `analytics/usage?appId=${litigation}`)).totals).toMatchObject({
      documentsAnalysed: 0,
      activeUsers: 0,
    })
  })

  it('counts a job the runner finishes, written as the worker role', async () => {
    const alice = await signedInMember(t, 'Runner Firm')
    const [row] = await db
      .insert(jobs)
      .values({ orgId: alice.orgId, kind: 'transcription', status: 'running' })
      .returning({ id: jobs.id })
    await db.execute(
      sql`UPDATE jobs SET started_at = now() - interval '5 seconds' WHERE id = ${row!.id}`,
    )
    await finishJob(db, row!.id, { status: 'succeeded', result: null })
    const { totals } = await get(alice, 'analytics/usage?days=7')
    expect(totals.jobsSucceeded).toBe(1)
    expect(totals.avgProcessingMs).toBeGreaterThanOrEqual(5000)
  })

  it('refuses a period other than 7, 30 or 90 days with a problem', async () => {
    const alice = await signedInMember(t, 'Period Firm')
    const res = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/analytics/usage?days=14`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json().detail).toMatch(/7, 30, 90/)
  })
})

describe('dashboard home', () => {
  it('shows the organisation’s tiles and a pasted document in its activity, by whom', async () => {
    const alice = await signedInMember(t, 'Home Firm')
    await signedInWithRole(t, alice.orgId, 'member')
    const mallory = await signedInMember(t, 'Stranger Firm')
    const pasted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents/text`,
      headers: alice.headers,
      payload: { title: 'Lease of Unit 4', content: 'The tenant shall pay rent monthly.' },
    })
    expect(pasted.statusCode, pasted.body).toBe(201)
    const documentId = (pasted.json() as { id: string }).id
    await event(alice, 'analysis.finished', 0)
    await event(alice, 'recording.uploaded', 1)
    await event(alice, 'recording.uploaded', 1)
    await event(alice, 'recording.deleted', 0)
    await event(mallory, 'analysis.finished', 0)
    await event(mallory, 'document.pasted', 0)

    expect(await get(alice, 'analytics/overview')).toEqual({
      documents: 1,
      analyses: 1,
      recordings: 1,
      members: 2,
    })
    const { items } = await get(alice, 'analytics/activity')
    const upload = items.find((i: { kind: string }) => i.kind === 'document.pasted')
    expect(upload).toMatchObject({
      meta: { documentId, title: 'Lease of Unit 4' },
      actor: { id: alice.userId, name: expect.stringMatching(/\S/) },
    })
    expect(items.length).toBeLessThanOrEqual(10)
    expect(JSON.stringify(await get(mallory, 'analytics/activity'))).not.toContain(documentId)
    // The real write went through the rollup too.
    expect((await get(alice, 'analytics/usage?days=7')).totals.documentsAdded).toBe(1)
  })

  it('shows a system event without an actor', async () => {
    const alice = await signedInMember(t, 'System Firm')
    await event(alice, 'entities.imported', 0, { actorId: null })
    const { items } = await get(alice, 'analytics/activity')
    expect(items.find((i: { kind: string }) => i.kind === 'entities.imported').actor).toBeNull()
  })
})

describe('analytics rollups', () => {
  it('keeps no rollup of an event whose transaction rolled back', async () => {
    const alice = await signedInMember(t, 'Rollback Firm')
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(events).values({ orgId: alice.orgId, kind: 'analysis.finished', meta: {} })
        throw new Error('the action failed')
      }),
    ).rejects.toThrow('the action failed')
    expect((await get(alice, 'analytics/usage?days=7')).totals.documentsAnalysed).toBe(0)
  })

  it('adds no active user for an event without an actor', async () => {
    const alice = await signedInMember(t, 'Quiet Firm')
    await event(alice, 'analysis.finished', 0, { actorId: null })
    expect((await get(alice, 'analytics/usage?days=7')).totals.activeUsers).toBe(0)
  })
})
