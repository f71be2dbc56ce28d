/**
 * The browser's side of the realtime channel (server/realtime/realtime-hub.ts, decisions 0052
 * and 0125), the page's one live channel: a WebSocket to `/api/v1/orgs/:orgId/realtime`,
 * authenticated by the session cookie (the server checks the page's Origin). `openRealtimeSocket`
 * opens one for a caller that shows the raw traffic (the Realtime Monitor); `useLiveRefresh` lets
 * a screen refetch its queries when rows of its tables change, and `followJob` follows a job's
 * state (jobs.ts's useJob), over one socket per organisation shared by every screen of the
 * page. Messages both ways are the server's typed map (RealtimeServerMessage and
 * RealtimeClientMessage in the OpenAPI document, server/realtime/realtime-messages.ts).
 */
import { useEffect, useEffectEvent } from 'react'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { components } from '../lib/api-schema'

/** A message from the server: `subscribed`, `unsubscribed`, `change`, `job` or `error`. */
export type RealtimeMessage = components['schemas']['RealtimeServerMessage']

/** A message to the server: `subscribe`, `unsubscribe`, `follow` or `unfollow`. */
export type RealtimeClientMessage = components['schemas']['RealtimeClientMessage']

type Job = components['schemas']['Job']

/** The socket close code of an ended or expired session or credential: do not reconnect. */
export const CREDENTIAL_ENDED = 4401

/**
 * Close codes after which the server would refuse the socket again, so the shared socket is not
 * reopened (server/realtime/realtime-hub.ts's CLOSE_CODES): 4401 the session or credential ended,
 * 4403 the person is no longer a member of the organisation, 1008 the page broke the message
 * limits. A reload (a new sign-in, another organisation) starts afresh.
 */
export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([CREDENTIAL_ENDED, 4403, 1008])

/** The WebSocket URL of `orgId`'s realtime channel on this page's server. */
export function realtimeUrl(orgId: string): string {
  const { protocol, host } = window.location
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/v1/orgs/${encodeURIComponent(orgId)}/realtime`
}

/** Sends `message` on an open socket. */
function sendMessage(socket: WebSocket, message: RealtimeClientMessage): void {
  socket.send(JSON.stringify(message))
}

/** Sends a subscribe or unsubscribe message for `table` (`schema.table`) on an open socket. */
export function sendSubscription(
  socket: WebSocket,
  type: 'subscribe' | 'unsubscribe',
  table: string,
): void {
  sendMessage(socket, { type, table })
}

/** Opens a socket to `orgId`'s channel, calling `onMessage` with each parsed server message. */
export function openRealtimeSocket(
  orgId: string,
  onMessage: (message: RealtimeMessage) => void,
): WebSocket {
  const socket = new WebSocket(realtimeUrl(orgId))
  socket.addEventListener('message', (event: MessageEvent<string>) => {
    try {
      onMessage(JSON.parse(event.data) as RealtimeMessage)
    } catch {
      // Not JSON: not from our server; nothing to show.
    }
  })
  return socket
}

/**
 * Time before a dropped shared socket is opened again (ms), doubled after each attempt that did
 * not open (the server down, or refusing the upgrade: too many sockets), up to RECONNECT_MAX_MS,
 * so a refused page does not knock every 3 s forever.
 */
const RECONNECT_MS = 3000
const RECONNECT_MAX_MS = 60_000

type Listener = () => void

/** What follows a job over the channel (see followJob). */
export interface JobFollower {
  /** The job as it now stands: on follow, then after each change; the last one has ended. */
  onJob(job: Job): void
  /** The server knows no such job (gone, or not this credential's): read it over HTTP. */
  onGone(): void
  /** The socket closed: changes may be missed until onBack (read the job some other way). */
  onLost(): void
  /** The socket is back after onLost, and the job followed again. */
  onBack(): void
}

/** A follower and whether it was told the socket was lost. */
interface Following {
  follower: JobFollower
  lost: boolean
}

/** One organisation's shared socket and the screens listening to each of its tables and jobs. */
interface Shared {
  socket: WebSocket | null
  listeners: Map<string, Set<Listener>>
  /** Followers by job id. */
  jobs: Map<string, Set<Following>>
  /** Listeners of the messages a feature sends the whole organisation (e.g. `review_cells`). */
  messages: Set<(message: RealtimeMessage | { type: 'reconnected' }) => void>
  timer: ReturnType<typeof setTimeout> | undefined
  /** Attempts in a row that closed without opening. */
  failures: number
}

const channels = new Map<string, Shared>()

/** A job's state after which it changes no more (the server ends its follow with it). */
const ended = (job: Job) => job.status !== 'queued' && job.status !== 'running'

function deliver(shared: Shared, message: RealtimeMessage): void {
  if (message.type === 'change') {
    for (const listener of shared.listeners.get(message.table) ?? []) listener()
  } else if (message.type === 'job') {
    const followers = shared.jobs.get(message.job.id)
    for (const { follower } of followers ?? []) follower.onJob(message.job)
  } else if (message.type === 'error' && message.code === 'job_not_found' && message.jobId) {
    for (const { follower } of shared.jobs.get(message.jobId) ?? []) follower.onGone()
  } else if (message.type === 'review_cells') {
    for (const listener of shared.messages) listener(message)
  }
}

function connect(orgId: string, shared: Shared): void {
  const socket = openRealtimeSocket(orgId, (message) => deliver(shared, message))
  shared.socket = socket
  let opened = false
  socket.addEventListener('open', () => {
    opened = true
    shared.failures = 0
    for (const table of shared.listeners.keys()) sendSubscription(socket, 'subscribe', table)
    for (const [jobId, followers] of shared.jobs) {
      sendMessage(socket, { type: 'follow', jobId })
      for (const following of followers) {
        if (!following.lost) continue
        following.lost = false
        following.follower.onBack()
      }
    }
  })
  socket.addEventListener('close', (event) => {
    if (shared.socket !== socket) return
    shared.socket = null
    for (const followers of shared.jobs.values()) {
      for (const following of followers) {
        if (following.lost) continue
        following.lost = true
        following.follower.onLost()
      }
    }
    if (FINAL_CLOSE_CODES.has(event.code) || unused(shared)) return
    if (!opened) shared.failures += 1
    const wait = Math.min(RECONNECT_MS * 2 ** shared.failures, RECONNECT_MAX_MS)
    // Changes made while it was down were not sent: listeners refetch once it is back.
    shared.timer = setTimeout(() => {
      shared.timer = undefined
      connect(orgId, shared)
      for (const set of shared.listeners.values()) for (const listener of set) listener()
      for (const listener of shared.messages) listener({ type: 'reconnected' })
    }, wait)
  })
}

/** Whether no screen listens to a table or follows a job on `shared` any more. */
function unused(shared: Shared): boolean {
  return shared.listeners.size === 0 && shared.jobs.size === 0 && shared.messages.size === 0
}

/** `orgId`'s shared channel, created (without a socket yet) if there is none. */
function channelOf(orgId: string): Shared {
  let shared = channels.get(orgId)
  if (!shared) {
    shared = {
      socket: null,
      listeners: new Map(),
      jobs: new Map(),
      messages: new Set(),
      timer: undefined,
      failures: 0,
    }
    channels.set(orgId, shared)
  }
  return shared
}

/** Closes `orgId`'s shared socket once nothing uses it. */
function releaseIfUnused(orgId: string, shared: Shared): void {
  if (!unused(shared)) return
  clearTimeout(shared.timer)
  shared.socket?.close(1000, 'No more listeners')
  channels.delete(orgId)
}

/** Adds `listener` for changes of `table` in `orgId`; returns the function that removes it. */
function listen(orgId: string, table: string, listener: Listener): () => void {
  const own = channelOf(orgId)
  let set = own.listeners.get(table)
  if (!set) {
    own.listeners.set(table, (set = new Set()))
    if (own.socket?.readyState === WebSocket.OPEN) sendSubscription(own.socket, 'subscribe', table)
  }
  set.add(listener)
  if (!own.socket && own.timer === undefined) connect(orgId, own)
  return () => {
    set.delete(listener)
    if (set.size > 0) return
    own.listeners.delete(table)
    if (own.socket?.readyState === WebSocket.OPEN)
      sendSubscription(own.socket, 'unsubscribe', table)
    releaseIfUnused(orgId, own)
  }
}

/**
 * Follows job `jobId` of `orgId` over the organisation's shared socket: `follower.onJob` gets its
 * state at once (the server sends it on follow) and after each change, until it has ended; while
 * the socket is down `onLost` says so, and `onBack` when it is open again (the job followed anew:
 * its current state follows). Call only where WebSocket exists. Returns the function that stops.
 */
export function followJob(orgId: string, jobId: string, follower: JobFollower): () => void {
  const own = channelOf(orgId)
  let stopped = false
  const following: Following = {
    follower: {
      ...follower,
      onJob: (job) => {
        follower.onJob(job)
        // The server ended the follow with this state: nothing to follow again after a reconnect.
        if (ended(job)) stop()
      },
    },
    lost: false,
  }
  const followers = own.jobs.get(jobId) ?? new Set<Following>()
  own.jobs.set(jobId, followers)
  followers.add(following)
  // Also for a job followed already: the server answers each follow with the job's state.
  if (own.socket?.readyState === WebSocket.OPEN) sendMessage(own.socket, { type: 'follow', jobId })
  if (!own.socket && own.timer === undefined) connect(orgId, own)
  else if (!own.socket) {
    // Waiting to reconnect: lost until the socket is back.
    following.lost = true
    follower.onLost()
  }
  function stop(): void {
    if (stopped) return
    stopped = true
    followers.delete(following)
    if (followers.size > 0) return
    own.jobs.delete(jobId)
    if (own.socket?.readyState === WebSocket.OPEN)
      sendMessage(own.socket, { type: 'unfollow', jobId })
    releaseIfUnused(orgId, own)
  }
  return stop
}

/**
 * Refetches the queries under `queryKey` whenever a row of one of `tables` (e.g.
 * `public.entities`) changes in organisation `orgId`, by anyone: a colleague's upload appears
 * without a reload. Listens only while `enabled`; no socket in an environment without WebSocket.
 */
export function useLiveRefresh(
  orgId: string,
  tables: readonly string[],
  queryKey: QueryKey,
  enabled = true,
): void {
  const queryClient = useQueryClient()
  const refresh = useEffectEvent(() => void queryClient.invalidateQueries({ queryKey }))
  const tableList = tables.join(',')
  useEffect(() => {
    if (typeof WebSocket === 'undefined' || !orgId || !enabled) return
    const stops = tableList.split(',').map((table) => listen(orgId, table, () => refresh()))
    return () => stops.forEach((stop) => stop())
  }, [orgId, tableList, enabled])
}

/** A review's written cells, as the fill announces them (server/realtime/realtime-messages.ts). */
export type ReviewCellsMessage = Extract<RealtimeMessage, { type: 'review_cells' }>

/**
 * Calls `onCells` with each `review_cells` message of organisation `orgId` (every review's: the
 * caller picks its own), over the shared socket, while `enabled`; after the socket was lost and is
 * back (messages meanwhile missed) `onCells(null)`, so the caller reads its cells again. No socket
 * in an environment without WebSocket.
 */
export function useReviewCellMessages(
  orgId: string,
  onCells: (message: ReviewCellsMessage | null) => void,
  enabled = true,
): void {
  const handle = useEffectEvent(onCells)
  useEffect(() => {
    if (typeof WebSocket === 'undefined' || !orgId || !enabled) return
    const own = channelOf(orgId)
    const listener = (message: RealtimeMessage | { type: 'reconnected' }) => {
      if (message.type === 'review_cells') handle(message)
      else if (message.type === 'reconnected') handle(null)
    }
    own.messages.add(listener)
    if (!own.socket && own.timer === undefined) connect(orgId, own)
    return () => {
      own.messages.delete(listener)
      releaseIfUnused(orgId, own)
    }
  }, [orgId, enabled])
}
