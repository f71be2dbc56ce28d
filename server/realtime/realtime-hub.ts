/**
 * The fan-out of table changes to realtime sockets (issue 24, decision 0052). Each socket is
 * bound to one organisation (and, for an app-bound credential, one app) when it opens; it
 * subscribes to allow-listed tables (`schema.table`) by message. A change announced by the
 * database (ChangeFeed) goes only to the sockets of the organisation whose rows changed: never to
 * another's, whatever table names it subscribed to. Rows are read back once per change under
 * that organisation's RLS (withTenant) and sent with the ids; a delete, or a change of more than
 * READ_BACK_MAX rows, sends ids (or only the count) and the client reads what it needs.
 * A socket closes (4401) when its session ends (its row deleted: sign-out, revocation), when the
 * API key or tenant token it was opened with is revoked or deleted (announced by their tables),
 * or when its session or credential expires; it closes (4403) when the user it acts for stops
 * being a member of its organisation (removed, left, user or organisation deleted: the member
 * table announces it), whatever credential opened it (issue 41, decision 0106). Every one of
 * these is announced by a trigger through the notifier, so the sockets of every server process
 * sharing the database close, not only those of the process that served the change. Right after
 * a socket is attached its access is read again from the database (confirmAccess), uncached: the
 * guard of its upgrade may have trusted a cache (10 s, or until the revocation relay's notice)
 * that another instance's removal or revocation has not reached yet, whose own notice this hub
 * then heard before the socket existed. A client
 * sending more than MESSAGE_BURST messages at once, or more than MESSAGES_PER_SECOND for long, is
 * closed (1008).
 *
 * Client → server (JSON text): `{ type: 'subscribe', table, appId? }`, `{ type: 'unsubscribe',
 * table }`, `{ type: 'follow' | 'unfollow', jobId }`. Server → client: `{ type: 'subscribed' |
 * 'unsubscribed', table, appId }`, `{ type: 'change', table, op, appId, count, ids, rows? }`,
 * `{ type: 'job', job }` (on follow, then after each change that alters what the job shows, never
 * the same state twice in a row; decision 0125), `{ type: 'error', code, detail, jobId? }`.
 */
import { and, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../db/client'
import { member, session } from '../db/schema'
import { withTenant } from '../db/tenant'
import type { ChangeFeed, TableChange } from './change-feed'
import type { Notifier } from './notifier'
import {
  REALTIME_SERVER_MESSAGES,
  RealtimeClientMessage,
  type RealtimeErrorCode,
  type RealtimeServerMessage,
} from './realtime-messages'
import { isRealtimeTable, REALTIME_TABLES, type RealtimeTableName } from './realtime-tables'

/** The channel the session table's trigger announces ended sessions on (their ids). */
export const SESSIONS_CHANNEL = 'lexdesk_sessions'

/**
 * The channel revoked or deleted API keys and tenant tokens are announced on (an API key's id, a
 * token's jti: the principal's credentialId), by their tables' triggers (migration
 * 0044_credential-revocations.sql).
 */
export const CREDENTIALS_CHANNEL = 'lexdesk_credentials'

/**
 * The channel the member table's trigger announces ended memberships on, as
 * `{"org_id", "user_id"}` (migration 0053_member-access-ends.sql).
 */
export const MEMBERS_CHANNEL = 'lexdesk_members'

const MemberEnded = z.object({ org_id: z.string().min(1), user_id: z.string().min(1) })

/**
 * The channel a feature announces a typed message to an organisation's sockets on, as
 * `{"org_id", "app_id", "message"}` with `pg_notify` inside the transaction whose commit it
 * announces (delivered at the commit, to every server process): today a review's written cells
 * (`review_cells`, decision 0137). Sockets of an app-bound credential get only their app's.
 */
export const ORG_MESSAGES_CHANNEL = 'lexdesk_org_messages'

const OrgMessage = z.object({
  org_id: z.string().min(1),
  app_id: z.string().nullable(),
  message: REALTIME_SERVER_MESSAGES.review_cells,
})

/** Most rows read back and sent with one change; past it, ids only. */
export const READ_BACK_MAX = 20

/** Subscriptions one socket may hold at once. */
const MAX_SUBSCRIPTIONS = 20

/**
 * Jobs one socket may follow at once. A page follows the jobs it shows a progress bar for (one a
 * panel: an analysis, an import, an export); 20, as for tables, leaves room for a busy screen and
 * stays under MESSAGE_BURST, so a page following its jobs at once is not taken for a flood.
 */
export const MAX_FOLLOWS = 20

/** Bytes queued for a client past which it is too slow to follow and is closed. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024

/**
 * Messages a client may send at once (a token bucket's size), and the rate it refills at, per
 * second. The web client sends one subscribe per table of the page when it opens (the allow-list
 * has 8) and one message per screen change after; the Realtime Monitor one per click. Past them
 * the client is flooding the hub's parsing and bookkeeping, and is closed (policyViolation).
 */
export const MESSAGE_BURST = 40
export const MESSAGES_PER_SECOND = 10

/**
 * WebSocket close codes (RFC 6455 §7.4: 4000–4999 are the application's; 4401 and 4403 echo the
 * HTTP statuses). The web client does not reconnect after 4401, 4403 or 1008
 * (web/hooks/realtime.ts).
 */
export const CLOSE_CODES = {
  /** The session ended or the session or credential expired or was revoked: sign in again. */
  credentialEnded: 4401,
  /** The user it acts for is no longer a member of the organisation. */
  accessRemoved: 4403,
  /** The client sent messages faster than MESSAGES_PER_SECOND (RFC 6455 policy violation). */
  policyViolation: 1008,
  /** The client did not read its messages fast enough. */
  tooSlow: 1013,
  /** Its access could not be read again (the database failed): the client may retry later. */
  serverError: 1011,
} as const

/** The part of a WebSocket the hub uses (ws's WebSocket). */
export interface HubSocket {
  send(data: string): void
  close(code: number, reason: string): void
  readonly bufferedAmount: number
}

/** Whom a socket acts for, fixed when it opens. */
export interface SocketOwner {
  orgId: string
  /**
   * The user it acts for (a session's, an API key's creator, a tenant token's minter); null for a
   * credential of the organisation itself.
   */
  userId: string | null
  /** The app an app-bound credential is confined to; null for a session or org-wide one. */
  appId: string | null
  /** The session the socket was opened with; null for a credential in a header. */
  sessionId: string | null
  /** The header credential (API key id, token jti) it was opened with; null for a session. */
  credentialId: string | null
  /** When the session or credential ends; null when it does not. */
  expiresAt: Date | null
}

/** A job as a `job` message carries it (getJob's answer), and the app it belongs to. */
export interface FollowedJob {
  job: { id: string; status: string }
  /** The app of the job's subject (its document, recording or app); null for the organisation. */
  appId: string | null
}

/**
 * Reads the jobs `ids` of organisation `orgId` under its RLS (those not found are left out):
 * given by the composition, since the job's API shape is the job catalogue's, above this layer.
 */
export type ReadJobs = (orgId: string, ids: readonly string[]) => Promise<FollowedJob[]>

/** A job's states after which nothing changes (a follow ends with the first of them). */
const ACTIVE_JOB_STATUSES: ReadonlySet<string> = new Set(['queued', 'running'])

interface Subscription {
  connection: OpenConnection
  appId: string | null
}

/** One open socket: its owner, its subscriptions, and its end. */
export interface Connection {
  readonly owner: SocketOwner
  /** Handles one message from the client: its text, or null for a binary message (refused). */
  receive(text: string | null): void
  /** Forgets the socket (call when it closes); idempotent. */
  detach(): void
}

/** A Connection as the hub drives it. */
interface OpenConnection extends Connection {
  /** Sends a message already serialised (one JSON text for every subscriber of a change). */
  send(text: string): void
  end(code: number, why: string): void
  /**
   * The jobs it follows, by id, each with the text of the last `job` message it was sent about it
   * (null before the first): a change that leaves the job as that text showed it is not sent.
   */
  readonly following: Map<string, string | null>
}

/** Longest delay setTimeout takes (ms); a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1

export class RealtimeHub {
  /** Subscriptions by `table \n orgId`. */
  private readonly subscriptions = new Map<string, Set<Subscription>>()
  /** Change feed unsubscribers by table, while the table has subscriptions. */
  private readonly feeds = new Map<RealtimeTableName, () => void>()
  private readonly connections = new Set<OpenConnection>()
  /** Each organisation's sends in the order of its changes (a read-back must not overtake). */
  private readonly queues = new Map<string, Promise<void>>()
  /** Followers of jobs by `orgId \n jobId`. */
  private readonly follows = new Map<string, Set<OpenConnection>>()
  /** Stops listening to the jobs table's changes, while a job is followed. */
  private stopJobFeed: (() => void) | undefined
  private stopListening: (() => Promise<void>) | undefined

  /**
   * `readJobs` reads followed jobs (without it, `follow` is answered `job_not_found`); `check`
   * throws for a message that is not a RealtimeServerMessage (given outside production).
   */
  constructor(
    private readonly deps: {
      db: Db
      changes: Pick<ChangeFeed, 'subscribe'>
      notifier: Notifier
      log: { warn(fields: object, message: string): void }
      readJobs?: ReadJobs
      check?: (message: RealtimeServerMessage) => void
    },
  ) {}

  /** `message` as JSON text, checked against the message map first when `check` is given. */
  private serialise(message: RealtimeServerMessage): string {
    this.deps.check?.(message)
    return JSON.stringify(message)
  }

  /** Starts listening for ended sessions and revoked credentials (once). */
  async start(): Promise<void> {
    if (this.stopListening) return
    const { notifier } = this.deps
    const stopSessions = await notifier.listen(SESSIONS_CHANNEL, (sessionId) =>
      this.endWhere((owner) => owner.sessionId === sessionId, 'Signed out'),
    )
    const stopCredentials = await notifier.listen(CREDENTIALS_CHANNEL, (credentialId) =>
      this.endWhere((owner) => owner.credentialId === credentialId, 'Credential revoked'),
    )
    const stopMembers = await notifier.listen(MEMBERS_CHANNEL, (payload) => {
      const ended = parseMemberEnded(payload)
      if (!ended) return this.deps.log.warn({}, 'ignored a malformed membership notice')
      this.endWhere(
        (owner) => owner.orgId === ended.org_id && owner.userId === ended.user_id,
        'No longer a member of this organisation',
        CLOSE_CODES.accessRemoved,
      )
    })
    const stopOrgMessages = await notifier.listen(ORG_MESSAGES_CHANNEL, (payload) =>
      this.relayOrgMessage(payload),
    )
    this.stopListening = async () => {
      await stopSessions()
      await stopCredentials()
      await stopMembers()
      await stopOrgMessages()
    }
  }

  /** Sends an ORG_MESSAGES_CHANNEL message to its organisation's sockets (of its app, if bound). */
  private relayOrgMessage(payload: string): void {
    let parsed: ReturnType<typeof OrgMessage.safeParse>
    try {
      parsed = OrgMessage.safeParse(JSON.parse(payload))
    } catch {
      parsed = OrgMessage.safeParse(undefined)
    }
    if (!parsed.success) return this.deps.log.warn({}, 'ignored a malformed organisation message')
    const { org_id: orgId, app_id: appId, message } = parsed.data
    this.enqueue(orgId, async () => {
      let text: string | undefined
      for (const c of this.connections) {
        if (c.owner.orgId !== orgId || (c.owner.appId !== null && c.owner.appId !== appId)) continue
        text ??= this.serialise(message)
        c.send(text)
      }
    })
  }

  /** Closes with `code` (default 4401) the sockets whose owner `ended` picks. */
  private endWhere(
    ended: (owner: SocketOwner) => boolean,
    reason: string,
    code: number = CLOSE_CODES.credentialEnded,
  ): void {
    for (const c of this.connections) {
      if (ended(c.owner)) c.end(code, reason)
    }
  }

  /** Closes every socket and stops listening. */
  async close(): Promise<void> {
    for (const c of [...this.connections]) c.end(1001, 'Server stopping')
    const stop = this.stopListening
    this.stopListening = undefined
    await stop?.()
  }

  /** Open sockets (for tests and the benchmark). */
  get size(): number {
    return this.connections.size
  }

  /** Attaches an opened socket of `owner`; the caller calls `detach` when it closes. */
  attach(socket: HubSocket, owner: SocketOwner): Connection {
    const own = new Map<RealtimeTableName, Subscription>()
    let timer: NodeJS.Timeout | undefined
    const sendText = (text: string) => {
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        connection.end(CLOSE_CODES.tooSlow, 'Too slow to follow the changes')
        return
      }
      socket.send(text)
    }
    const send = (message: RealtimeServerMessage) => sendText(this.serialise(message))
    const error = (code: RealtimeErrorCode, detail: string, jobId?: string) =>
      send({ type: 'error', code, detail, ...(jobId ? { jobId } : {}) })
    const unsubscribe = (table: RealtimeTableName) => {
      const sub = own.get(table)
      if (!sub) return
      own.delete(table)
      this.remove(table, owner.orgId, sub)
    }
    const mayReceive = tokenBucket(MESSAGE_BURST, MESSAGES_PER_SECOND)
    const connection: OpenConnection = {
      owner,
      following: new Map(),
      send: sendText,
      receive: (text: string | null) => {
        if (!this.connections.has(connection)) return
        if (!mayReceive()) {
          connection.end(
            CLOSE_CODES.policyViolation,
            `Too many messages: at most ${MESSAGES_PER_SECOND} a second`,
          )
          return
        }
        let parsed: RealtimeClientMessage
        try {
          if (text === null) throw new Error('binary')
          parsed = RealtimeClientMessage.parse(JSON.parse(text))
        } catch {
          error(
            'bad_message',
            'Send {"type":"subscribe"|"unsubscribe","table":"schema.table"} or {"type":"follow"|"unfollow","jobId":"…"}',
          )
          return
        }
        if (parsed.type === 'follow') {
          const { jobId } = parsed
          if (!connection.following.has(jobId) && connection.following.size >= MAX_FOLLOWS) {
            error('too_many_follows', `At most ${MAX_FOLLOWS} jobs at once`, jobId)
            return
          }
          this.follow(connection, jobId)
          return
        }
        if (parsed.type === 'unfollow') {
          this.unfollow(connection, parsed.jobId)
          return
        }
        const { table } = parsed
        if (!isRealtimeTable(table)) {
          error(
            'table_not_allowed',
            `${table} cannot be subscribed to; these can: ${Object.keys(REALTIME_TABLES).join(', ')}`,
          )
          return
        }
        if (parsed.type === 'unsubscribe') {
          unsubscribe(table)
          send({ type: 'unsubscribed', table })
          return
        }
        if (!own.has(table) && own.size >= MAX_SUBSCRIPTIONS) {
          error('too_many_subscriptions', `At most ${MAX_SUBSCRIPTIONS} tables at once`)
          return
        }
        unsubscribe(table)
        const appId = owner.appId ?? parsed.appId ?? null
        const sub: Subscription = { connection, appId }
        own.set(table, sub)
        this.add(table, owner.orgId, sub)
        send({ type: 'subscribed', table, appId })
      },
      detach: () => {
        clearTimeout(timer)
        if (!this.connections.delete(connection)) return
        for (const table of [...own.keys()]) unsubscribe(table)
        for (const jobId of [...connection.following.keys()]) this.unfollow(connection, jobId)
      },
      end: (code: number, why: string) => {
        connection.detach()
        socket.close(code, why)
      },
    }
    this.connections.add(connection)
    const expireAt = (at: Date) => {
      const wait = at.getTime() - Date.now()
      if (wait <= 0) return void expired()
      timer = setTimeout(() => expireAt(at), Math.min(wait, MAX_TIMER_MS))
      timer.unref()
    }
    // A session is renewed while its user is active (better-auth's updateAge): its end is read
    // again when the one known at the upgrade comes, and the socket lives on to the new one.
    const expired = async () => {
      if (owner.sessionId === null) {
        return connection.end(CLOSE_CODES.credentialEnded, 'Credential expired')
      }
      let renewed: Date | null
      try {
        renewed = await this.sessionExpiry(owner.sessionId)
      } catch (error) {
        this.deps.log.warn({ err: error }, 'reading a realtime session failed; closing its socket')
        renewed = null
      }
      if (!this.connections.has(connection)) return
      if (renewed && renewed.getTime() > Date.now()) return expireAt(renewed)
      connection.end(CLOSE_CODES.credentialEnded, 'Session expired')
    }
    if (owner.expiresAt) expireAt(owner.expiresAt)
    void this.confirmAccess(connection)
    return connection
  }

  /**
   * Reads again, uncached, whether `connection`'s owner still has access, and closes it if not:
   * still a member (4403 otherwise), its session still there (4401), its API key or tenant token
   * not revoked (4401). Any end announced from now on reaches the attached socket; this covers
   * the ends announced before it was attached. A failed read closes it (1011).
   */
  private async confirmAccess(connection: OpenConnection): Promise<void> {
    let ended: { code: number; reason: string } | null
    try {
      ended = await this.accessEnded(connection.owner)
    } catch (error) {
      this.deps.log.warn({ err: error }, "reading a realtime socket's access failed; closing it")
      ended = { code: CLOSE_CODES.serverError, reason: 'Could not confirm access' }
    }
    if (ended && this.connections.has(connection)) connection.end(ended.code, ended.reason)
  }

  /** How `owner`'s access has ended, read from the database; null while it has not. */
  private async accessEnded(owner: SocketOwner): Promise<{ code: number; reason: string } | null> {
    const { db } = this.deps
    if (owner.userId !== null) {
      const [row] = await db
        .select({ id: member.id })
        .from(member)
        .where(and(eq(member.organizationId, owner.orgId), eq(member.userId, owner.userId)))
        .limit(1)
      if (!row) {
        return {
          code: CLOSE_CODES.accessRemoved,
          reason: 'No longer a member of this organisation',
        }
      }
    }
    if (owner.sessionId !== null && (await this.sessionExpiry(owner.sessionId)) === null) {
      return { code: CLOSE_CODES.credentialEnded, reason: 'Signed out' }
    }
    if (owner.credentialId !== null) {
      // An API key's id or a tenant token's jti (a credential of another kind is in neither).
      const id = owner.credentialId
      const result = await withTenant(db, { orgId: owner.orgId }, (tx) =>
        tx.execute(sql`SELECT EXISTS (SELECT 1 FROM api_keys WHERE id::text = ${id} AND revoked_at IS NOT NULL)
          OR EXISTS (SELECT 1 FROM tenant_tokens WHERE jti::text = ${id} AND revoked_at IS NOT NULL) AS revoked`),
      )
      const rows = (
        Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
      ) as Array<{
        revoked: boolean
      }>
      if (rows[0]?.revoked)
        return { code: CLOSE_CODES.credentialEnded, reason: 'Credential revoked' }
    }
    return null
  }

  /** When session `id` ends now (it may have been renewed), or null when it is gone. */
  private async sessionExpiry(id: string): Promise<Date | null> {
    const [row] = await this.deps.db
      .select({ expiresAt: session.expiresAt })
      .from(session)
      .where(eq(session.id, id))
      .limit(1)
    return row?.expiresAt ?? null
  }

  private add(table: RealtimeTableName, orgId: string, sub: Subscription): void {
    const key = `${table}\n${orgId}`
    let set = this.subscriptions.get(key)
    if (!set) this.subscriptions.set(key, (set = new Set()))
    set.add(sub)
    if (!this.feeds.has(table)) {
      this.feeds.set(
        table,
        this.deps.changes.subscribe(table, (change) => this.fanOut(change)),
      )
    }
  }

  private remove(table: RealtimeTableName, orgId: string, sub: Subscription): void {
    const key = `${table}\n${orgId}`
    const set = this.subscriptions.get(key)
    if (!set) return
    set.delete(sub)
    if (set.size > 0) return
    this.subscriptions.delete(key)
    const stillWatched = [...this.subscriptions.keys()].some((k) => k.startsWith(`${table}\n`))
    if (!stillWatched) {
      this.feeds.get(table)?.()
      this.feeds.delete(table)
    }
  }

  /** Sends `change` to the subscribers of its table in its organisation only. */
  private fanOut(change: TableChange): void {
    const key = `${change.table}\n${change.org_id}`
    if (!this.subscriptions.has(key)) return
    this.enqueue(change.org_id, () => this.deliver(key, change))
  }

  /** Runs `task` after the organisation's earlier sends (its messages keep their order). */
  private enqueue(orgId: string, task: () => Promise<void>): void {
    const previous = this.queues.get(orgId) ?? Promise.resolve()
    const next = previous
      .then(task)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'realtime delivery failed'))
    this.queues.set(orgId, next)
    void next.finally(() => {
      if (this.queues.get(orgId) === next) this.queues.delete(orgId)
    })
  }

  /** Makes `connection` follow `jobId` and sends it the job as it stands. */
  private follow(connection: OpenConnection, jobId: string): void {
    const { orgId } = connection.owner
    const key = `${orgId}\n${jobId}`
    let followers = this.follows.get(key)
    if (!followers) this.follows.set(key, (followers = new Set()))
    followers.add(connection)
    if (!connection.following.has(jobId)) connection.following.set(jobId, null)
    this.stopJobFeed ??= this.deps.changes.subscribe('public.jobs', (change) =>
      this.jobsChanged(change),
    )
    this.enqueue(orgId, () => this.sendJobs(orgId, [jobId], connection))
  }

  /** Stops `connection` following `jobId` (nothing if it did not); idempotent. */
  private unfollow(connection: OpenConnection, jobId: string): void {
    if (!connection.following.delete(jobId)) return
    const key = `${connection.owner.orgId}\n${jobId}`
    const followers = this.follows.get(key)
    followers?.delete(connection)
    if (followers?.size === 0) this.follows.delete(key)
    if (this.follows.size === 0) {
      this.stopJobFeed?.()
      this.stopJobFeed = undefined
    }
  }

  /** Sends the followed jobs a statement changed (all of its organisation's, past 100 rows). */
  private jobsChanged(change: TableChange): void {
    const prefix = `${change.org_id}\n`
    const followed = [...this.follows.keys()]
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length))
    const changed = change.ids ? followed.filter((id) => change.ids?.includes(id)) : followed
    if (changed.length > 0) this.enqueue(change.org_id, () => this.sendJobs(change.org_id, changed))
  }

  /**
   * Reads jobs `ids` of `orgId` once and sends each to its followers (only to `only`, a new
   * follower, when given): a `job` message, the follow ended after a final state; `job_not_found`
   * to a follower that may not see it (gone, or of another app than its credential's). A follower
   * already sent this very state of the job is not sent it again: on PostgreSQL a change committed
   * just before a follow can be announced after it, and a write that changes nothing the API shows
   * (the runner's heartbeat) is announced too. A follow's own answer is always sent, so every
   * `follow` is answered (the web app's second follower of a job waits for it).
   */
  private async sendJobs(orgId: string, ids: string[], only?: OpenConnection): Promise<void> {
    const found = this.deps.readJobs ? await this.deps.readJobs(orgId, ids) : []
    const byId = new Map(found.map((followed) => [followed.job.id, followed]))
    for (const jobId of ids) {
      const followers = [...(this.follows.get(`${orgId}\n${jobId}`) ?? [])].filter(
        (c) => !only || c === only,
      )
      if (followers.length === 0) continue
      const followed = byId.get(jobId)
      let text: string | undefined
      for (const connection of followers) {
        const { appId } = connection.owner
        if (!followed || (appId !== null && appId !== followed.appId)) {
          connection.send(
            this.serialise({
              type: 'error',
              code: 'job_not_found',
              detail: 'No such job in this organisation (or outside the app of this credential)',
              jobId,
            }),
          )
          this.unfollow(connection, jobId)
          continue
        }
        text ??= this.serialise({ type: 'job', job: followed.job })
        if (!only && connection.following.get(jobId) === text) continue
        connection.following.set(jobId, text)
        connection.send(text)
        if (!ACTIVE_JOB_STATUSES.has(followed.job.status)) this.unfollow(connection, jobId)
      }
    }
  }

  private async deliver(key: string, change: TableChange): Promise<void> {
    const rows = (await this.readBack(change)) as Record<string, unknown>[] | undefined
    const text = this.serialise({
      type: 'change',
      table: change.table,
      op: change.op,
      appId: change.app_id,
      count: change.count,
      ids: change.ids,
      ...(rows ? { rows } : {}),
    })
    for (const sub of this.subscriptions.get(key) ?? []) {
      if (sub.appId !== null && sub.appId !== change.app_id) continue
      sub.connection.send(text)
    }
  }

  /** The changed rows as the organisation sees them (its RLS), or undefined when not read. */
  private async readBack(change: TableChange): Promise<unknown[] | undefined> {
    if (change.op === 'delete' || !change.ids || change.ids.length > READ_BACK_MAX) return
    const { idType, columns } = REALTIME_TABLES[change.table]
    const ids = sql.join(
      change.ids.map((id) => sql`${id}::${sql.raw(idType)}`),
      sql`, `,
    )
    // Names come from the allow-list only (constants), values are parameters.
    const query = sql`SELECT row_to_json(r)::text AS row FROM (SELECT ${sql.raw(columns.join(', '))} FROM ${sql.raw(change.table)} WHERE id IN (${ids}) ORDER BY id) AS r`
    const result = await withTenant(this.deps.db, { orgId: change.org_id }, (tx) =>
      tx.execute(query),
    )
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
      row: string
    }>
    return rows.map((r) => JSON.parse(r.row) as unknown)
  }
}

/** The organisation and user of a membership notice, or null when it is malformed. */
function parseMemberEnded(payload: string): z.infer<typeof MemberEnded> | null {
  try {
    const parsed = MemberEnded.safeParse(JSON.parse(payload))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * A token bucket (the classic rate limiter: `burst` tokens, refilled at `perSecond`): each call
 * takes one token and says whether there was one.
 */
function tokenBucket(burst: number, perSecond: number): () => boolean {
  let tokens = burst
  let filledAt = performance.now()
  return () => {
    const now = performance.now()
    tokens = Math.min(burst, tokens + ((now - filledAt) / 1000) * perSecond)
    filledAt = now
    if (tokens < 1) return false
    tokens -= 1
    return true
  }
}
