/**
 * The browser's side of the realtime channel (server/realtime/realtime-hub.ts, decision 0052):
 * a WebSocket to `/api/v1/orgs/:orgId/realtime`, authenticated by the session cookie (the server
 * checks the page's Origin). `openRealtimeSocket` opens one for a caller that shows the raw
 * traffic (the Realtime Monitor); `useLiveRefresh` lets a screen refetch its queries when rows of
 * its tables change, over one socket per organisation shared by every screen of the page.
 */
import { useEffect, useEffectEvent } from 'react'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'

/** A message from the server: `subscribed`, `unsubscribed`, `change` or `error`. */
export interface RealtimeMessage {
  type: string
  table?: string
  op?: 'insert' | 'update' | 'delete'
  ids?: string[] | null
  count?: number
  [field: string]: unknown
}

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

/** Sends a subscribe or unsubscribe message for `table` (`schema.table`) on an open socket. */
export function sendSubscription(
  socket: WebSocket,
  type: 'subscribe' | 'unsubscribe',
  table: string,
): void {
  socket.send(JSON.stringify({ type, table }))
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

/** One organisation's shared socket and the screens listening to each of its tables. */
interface Shared {
  socket: WebSocket | null
  listeners: Map<string, Set<Listener>>
  timer: ReturnType<typeof setTimeout> | undefined
  /** Attempts in a row that closed without opening. */
  failures: number
}

const channels = new Map<string, Shared>()

function connect(orgId: string, shared: Shared): void {
  const socket = openRealtimeSocket(orgId, (message) => {
    if (message.type !== 'change' || !message.table) return
    for (const listener of shared.listeners.get(message.table) ?? []) listener()
  })
  shared.socket = socket
  let opened = false
  socket.addEventListener('open', () => {
    opened = true
    shared.failures = 0
    for (const table of shared.listeners.keys()) sendSubscription(socket, 'subscribe', table)
  })
  socket.addEventListener('close', (event) => {
    if (shared.socket !== socket) return
    shared.socket = null
    if (FINAL_CLOSE_CODES.has(event.code) || shared.listeners.size === 0) return
    if (!opened) shared.failures += 1
    const wait = Math.min(RECONNECT_MS * 2 ** shared.failures, RECONNECT_MAX_MS)
    // Changes made while it was down were not sent: listeners refetch once it is back.
    shared.timer = setTimeout(() => {
      shared.timer = undefined
      connect(orgId, shared)
      for (const set of shared.listeners.values()) for (const listener of set) listener()
    }, wait)
  })
}

/** Adds `listener` for changes of `table` in `orgId`; returns the function that removes it. */
function listen(orgId: string, table: string, listener: Listener): () => void {
  let shared = channels.get(orgId)
  if (!shared) {
    shared = { socket: null, listeners: new Map(), timer: undefined, failures: 0 }
    channels.set(orgId, shared)
  }
  const own = shared
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
    if (own.listeners.size > 0) return
    clearTimeout(own.timer)
    own.socket?.close(1000, 'No more listeners')
    channels.delete(orgId)
  }
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
