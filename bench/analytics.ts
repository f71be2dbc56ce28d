/**
 * Analytics benchmark (issue 30, decision 0060), in process on an in-memory PGlite: one
 * organisation with 100,000 events over the last 120 days (five kinds, three apps and
 * organisation-wide, 25 people) and 10,000 succeeded jobs, beside a second organisation of
 * 20,000 events. Server time (the services, no HTTP) of what a page view reads, p50/p95 over RUNS
 * runs after WARM_UP:
 * - `analytics_p50_ms`: the analytics screen, the usage of the last 30 days and the recent
 *   activity (target ≤ 50 ms, issue 30);
 * - the same for 90 days and for one app, and the dashboard home (tiles and activity).
 */
import os from 'node:os'
import { sql } from 'drizzle-orm'
import { openPglite } from '../server/db/client'
import { apps as appsTable, events, member, organization, user } from '../server/db/schema'
import type { Principal } from '../server/db/tenant'
import { overview, recentActivity, usage } from '../server/features/analytics/service'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const EVENTS = 100_000
const NEIGHBOUR_EVENTS = 20_000
const JOBS = 10_000
const PEOPLE = 25
const SPAN_DAYS = 120
const RUNS = 200
const WARM_UP = 20
const KINDS = [
  'document.uploaded',
  'document.pasted',
  'analysis.finished',
  'recording.uploaded',
  'entity.created',
]
const DAY_MS = 86_400_000

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
}

async function timed(fn: () => Promise<unknown>) {
  const times: number[] = []
  for (let run = 0; run < RUNS + WARM_UP; run += 1) {
    const t0 = performance.now()
    await fn()
    if (run >= WARM_UP) times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) }
}

/** Writes `n` events of `orgId` spread evenly over SPAN_DAYS, in statements of 2,000 rows. */
async function writeEvents(
  db: Awaited<ReturnType<typeof openPglite>>['db'],
  orgId: string,
  n: number,
  apps: (string | null)[],
) {
  const now = Date.now()
  for (let at = 0; at < n; at += 2000) {
    const rows = Array.from({ length: Math.min(2000, n - at) }, (_, j) => {
      const i = at + j
      return {
        orgId,
        appId: apps[i % apps.length] ?? null,
        kind: KINDS[i % KINDS.length] as string,
        meta: { documentId: `d-${i}`, title: `Document ${i}` },
        actorId: `${orgId}-person-${i % PEOPLE}`,
        createdAt: new Date(now - Math.floor((i / n) * SPAN_DAYS * DAY_MS)),
      }
    })
    await db.insert(events).values(rows)
  }
}

/** Runs the benchmark and reports its figures. */
export async function analyticsBench(report: Report): Promise<void> {
  const database = await openPglite({})
  const { db } = database
  try {
    const orgIds = ['bench-org', 'neighbour-org']
    for (const orgId of orgIds) {
      await db.insert(organization).values({ id: orgId, name: orgId, slug: orgId })
      const people = Array.from({ length: PEOPLE }, (_, i) => ({
        id: `${orgId}-person-${i}`,
        name: `Person ${i}`,
        email: `person-${i}@${orgId}.test`,
      }))
      await db.insert(user).values(people)
      await db.insert(member).values(
        people.map((p, i) => ({
          id: `${p.id}-m`,
          organizationId: orgId,
          userId: p.id,
          role: i === 0 ? 'owner' : 'member',
        })),
      )
    }
    const apps = (
      await db
        .insert(appsTable)
        .values([1, 2, 3].map((i) => ({ orgId: 'bench-org', slug: `app-${i}` })))
        .returning({ id: appsTable.id })
    ).map((r) => r.id)
    const t0 = performance.now()
    await writeEvents(db, 'bench-org', EVENTS, [...apps, null])
    const writeMs = performance.now() - t0
    await writeEvents(db, 'neighbour-org', NEIGHBOUR_EVENTS, [null])
    await db.execute(sql`
      INSERT INTO jobs (org_id, kind, status, started_at)
      SELECT 'bench-org', 'analysis', 'running',
             now() - make_interval(days => g % ${SPAN_DAYS}) - make_interval(secs => 1 + g % 7)
      FROM generate_series(1, ${JOBS}) g`)
    await db.execute(sql`
      UPDATE jobs SET status = 'succeeded',
        finished_at = started_at + make_interval(secs => 1 + (extract(epoch FROM started_at)::bigint % 5))`)
    await db.execute(sql`analyze`)

    const principal: Principal = {
      orgId: 'bench-org',
      userId: 'bench-org-person-0',
      role: 'member',
      actorType: 'user',
    }
    const screen = (days: number, appId?: string) => () =>
      Promise.all([usage(db, principal, { days, appId }), recentActivity(db, principal, { appId })])
    const check = await usage(db, principal, { days: 30 })
    if (check.totals.documentsAnalysed === 0 || check.totals.avgProcessingMs === null)
      throw new Error('the benchmark found no activity')

    const month = await timed(screen(30))
    report(
      'analytics_p50_ms',
      month.p50,
      'ms',
      `usage of the last 30 days + recent activity at ${EVENTS} events; p95 ${month.p95.toFixed(1)} ms; target ≤ 50; load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`,
    )
    const quarter = await timed(screen(90))
    report('analytics_90d_p50_ms', quarter.p50, 'ms', `p95 ${quarter.p95.toFixed(1)} ms`)
    const oneApp = await timed(screen(30, apps[0]))
    report('analytics_app_p50_ms', oneApp.p50, 'ms', `one app; p95 ${oneApp.p95.toFixed(1)} ms`)
    const home = await timed(() =>
      Promise.all([overview(db, principal, {}), recentActivity(db, principal, {})]),
    )
    report(
      'dashboard_home_p50_ms',
      home.p50,
      'ms',
      `tiles + activity; p95 ${home.p95.toFixed(1)} ms`,
    )
    report(
      'analytics_event_insert_us',
      (writeMs * 1000) / EVENTS,
      'µs',
      'per event, written 2,000 a statement with the rollup trigger',
    )
  } finally {
    await database.close()
  }
}
