/**
 * The figures of the dashboard home and the analytics screen (issue 30, decision 0060), read from
 * the daily rollups `activity_daily`, `activity_users` and `activity_org_users` (kept by triggers
 * on events and jobs), the document counters (decision 7) and the newest events: each view reads
 * a few rows per day of the period, never every event or job.
 */
import { and, desc, eq, gte, inArray, like, or, sql, sum, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  activityDaily,
  activityOrgUsers,
  activityUsers,
  documentCounts,
  events,
  member,
  user,
} from '../../db/schema'
import { withTenantReads, type Principal } from '../../db/tenant'

/** The periods analytics offers, in days ending today (UTC); 30 is the screen's default. */
export const ANALYTICS_PERIODS = [7, 30, 90] as const

/** How many events the recent-activity lists show. */
export const ACTIVITY_LIMIT = 10

/** The event kinds behind each figure (event-kinds.ts). */
const ANALYSED = 'analysis.finished'
const RECORDED = 'recording.uploaded'
const RECORDING_DELETED = 'recording.deleted'
const ADDED = ['document.uploaded', 'document.pasted']
const DAILY_KINDS = [ANALYSED, RECORDED, ...ADDED]

/** One UTC day of the analytics series (`day` as YYYY-MM-DD). */
export interface UsageDay {
  day: string
  documentsAdded: number
  documentsAnalysed: number
  voiceRecordings: number
  activeUsers: number
}

/** The analytics of a period: its totals and one point per day, oldest first. */
export interface Usage {
  days: number
  from: string
  to: string
  totals: {
    documentsAdded: number
    documentsAnalysed: number
    voiceRecordings: number
    /** Distinct users with at least one event in the period. */
    activeUsers: number
    /** Foreground jobs that succeeded in the period (organisation-wide: jobs have no app). */
    jobsSucceeded: number
    /** Their mean run, started to finished, in milliseconds; null when there was none. */
    avgProcessingMs: number | null
  }
  series: UsageDay[]
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10)

/** The `days` UTC dates ending with `now`'s, oldest first. */
function daysEnding(now: Date, days: number): string[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: days }, (_, i) => isoDay(new Date(end - (days - 1 - i) * 86_400_000)))
}

const inApp = (column: typeof activityDaily.appId | typeof events.appId, appId?: string) =>
  appId ? eq(column, appId) : undefined

/**
 * The analytics of the `days` days ending today (UTC) for the principal's organisation, or for
 * one app of it (`appId`; jobs count organisation-wide, having no app). An app of another
 * organisation simply has no rows (RLS).
 */
export async function usage(
  db: Db,
  principal: Principal,
  query: { days: number; appId?: string },
  now = new Date(),
): Promise<Usage> {
  const dates = daysEnding(now, query.days)
  const from = dates[0] as string
  // An app-scoped principal sees its app (RLS would hide the rest of activity_daily anyway).
  const appId = query.appId ?? principal.appId ?? undefined
  // Per day and for the whole period at once (grouping sets); "C" ordering, as user ids are
  // opaque, spares the locale's collation in the sort for the distinct count.
  const users = appId
    ? sql`select day::text as day, count(distinct user_id collate "C")::int as users
          from ${activityUsers} where day >= ${from} and app_id = ${appId}
          group by grouping sets ((day), ())`
    : sql`select day::text as day, count(distinct user_id collate "C")::int as users
          from ${activityOrgUsers} where day >= ${from}
          group by grouping sets ((day), ())`
  const [rollups, activeUsers] = await withTenantReads(
    db,
    principal,
    (tx) => [
      tx
        .select({
          day: activityDaily.day,
          metric: activityDaily.metric,
          count: sum(activityDaily.count).mapWith(Number),
          totalMs: sum(activityDaily.totalMs).mapWith(Number),
        })
        .from(activityDaily)
        .where(
          and(
            gte(activityDaily.day, from),
            or(
              like(activityDaily.metric, 'job:%'),
              and(inArray(activityDaily.metric, DAILY_KINDS), inApp(activityDaily.appId, appId)),
            ),
          ),
        )
        .groupBy(activityDaily.day, activityDaily.metric),
      tx.execute<{ day: string | null; users: number }>(users),
    ],
    { reusePlans: true },
  )
  const userRows = (activeUsers as unknown as { rows: { day: string | null; users: number }[] })
    .rows
  const byDay = new Map<string, UsageDay>(
    dates.map((day) => [
      day,
      { day, documentsAdded: 0, documentsAnalysed: 0, voiceRecordings: 0, activeUsers: 0 },
    ]),
  )
  let jobs = 0
  let jobsMs = 0
  for (const r of rollups) {
    const point = byDay.get(r.day)
    if (!point) continue
    if (r.metric.startsWith('job:')) {
      jobs += r.count
      jobsMs += r.totalMs
    } else if (r.metric === ANALYSED) point.documentsAnalysed += r.count
    else if (r.metric === RECORDED) point.voiceRecordings += r.count
    else point.documentsAdded += r.count
  }
  for (const r of userRows) {
    const point = r.day === null ? undefined : byDay.get(r.day)
    if (point) point.activeUsers = r.users
  }
  const series = [...byDay.values()]
  const total = (key: 'documentsAdded' | 'documentsAnalysed' | 'voiceRecordings') =>
    series.reduce((n, p) => n + p[key], 0)
  return {
    days: query.days,
    from,
    to: dates[dates.length - 1] as string,
    totals: {
      documentsAdded: total('documentsAdded'),
      documentsAnalysed: total('documentsAnalysed'),
      voiceRecordings: total('voiceRecordings'),
      activeUsers: userRows.find((r) => r.day === null)?.users ?? 0,
      jobsSucceeded: jobs,
      avgProcessingMs: jobs > 0 ? Math.round(jobsMs / jobs) : null,
    },
    series,
  }
}

/** The dashboard home's four tiles. */
export interface Overview {
  /** Documents in the library now (the document counters). */
  documents: number
  /** Analyses that finished, ever. */
  analyses: number
  /** Voice recordings kept now: uploaded less deleted. */
  recordings: number
  /** Members of the organisation (not of an app: apps have no members). */
  members: number
}

/** The four tiles of the home for the organisation, or one app of it (`appId`). */
export async function overview(
  db: Db,
  principal: Principal,
  query: { appId?: string },
): Promise<Overview> {
  const appId = query.appId ?? principal.appId ?? undefined
  const [docs, rollups] = await withTenantReads(db, principal, (tx) => [
    tx
      .select({ n: sum(documentCounts.documents).mapWith(Number) })
      .from(documentCounts)
      .where(appId ? eq(documentCounts.appId, appId) : undefined),
    tx
      .select({ metric: activityDaily.metric, n: sum(activityDaily.count).mapWith(Number) })
      .from(activityDaily)
      .where(
        and(
          inArray(activityDaily.metric, [ANALYSED, RECORDED, RECORDING_DELETED]),
          inApp(activityDaily.appId, appId),
        ),
      )
      .groupBy(activityDaily.metric),
  ])
  // better-auth's member table is not a tenant table (no RLS, no grant to lexdesk_app): read it
  // directly, by the organisation the guard has already checked (member_org_user_idx).
  const [members] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(member)
    .where(eq(member.organizationId, principal.orgId))
  const of = (metric: string) => rollups.find((r) => r.metric === metric)?.n ?? 0
  return {
    documents: docs[0]?.n ?? 0,
    analyses: of(ANALYSED),
    recordings: Math.max(0, of(RECORDED) - of(RECORDING_DELETED)),
    members: members?.n ?? 0,
  }
}

/** One line of recent activity: an event and who acted (null for the system). */
export interface ActivityItem {
  id: number
  kind: string
  appId: string | null
  meta: Record<string, unknown>
  createdAt: string
  actor: { id: string; name: string } | null
}

/**
 * The newest ACTIVITY_LIMIT events of the organisation, or of one app (`appId`), with the name
 * (else e-mail) of the member who acted; an actor no longer a member is shown as null.
 */
export async function recentActivity(
  db: Db,
  principal: Principal,
  query: { appId?: string },
): Promise<ActivityItem[]> {
  const where: SQL | undefined = inApp(events.appId, query.appId ?? principal.appId ?? undefined)
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx
      .select()
      .from(events)
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(ACTIVITY_LIMIT),
  ])
  const actorIds = [...new Set(rows.flatMap((r) => (r.actorId ? [r.actorId] : [])))]
  const people =
    actorIds.length === 0
      ? []
      : await db
          .select({ id: user.id, name: user.name, email: user.email })
          .from(member)
          .innerJoin(user, eq(user.id, member.userId))
          .where(and(eq(member.organizationId, principal.orgId), inArray(user.id, actorIds)))
  const names = new Map(people.map((p) => [p.id, p.name || p.email]))
  return rows.map((r) => {
    const name = r.actorId ? names.get(r.actorId) : undefined
    return {
      id: r.id,
      kind: r.kind,
      appId: r.appId,
      meta: r.meta as Record<string, unknown>,
      createdAt: r.createdAt.toISOString(),
      actor: r.actorId && name !== undefined ? { id: r.actorId, name } : null,
    }
  })
}
