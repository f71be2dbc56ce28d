/**
 * Realtime fan-out benchmark (issue 24): one server process on a fresh data dir, one signed-in
 * owner, SUBSCRIBERS WebSockets (undici's client, over loopback TCP) subscribed to
 * `public.entities` of the owner's organisation, then CHANGES entities created one after another
 * through `POST /api/v1/orgs/:orgId/entities`. A change's latency at a subscriber runs from just
 * before its write request was sent to that subscriber's receipt of the change (the row read back
 * included); p50 and p95 are over every (change, subscriber) pair. `realtime_write_p50_ms` is
 * the write request's own answer time, the part of the latency that is not the fan-out. The path measured: HTTP write,
 * the statement trigger's NOTIFY at commit, the notifier, the read-back under RLS, the fan-out.
 * Targets (issue 24): p50 ≤ 50 ms, p95 ≤ 200 ms on the 2-core development machine. Client and
 * server share the machine's cores.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { WebSocket } from 'undici'
import { startChildServer } from '../server/test/child-server'
import { signedInHttpMember } from '../server/test/http-member'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const PORT = Number(process.env.LEXDESK_BENCH_PORT ?? 3987) + 9
const SUBSCRIBERS = 100
const CHANGES = 1000

/** The `q`-quantile (0–1) of sorted `values` (nearest rank). */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN
}

/** Opens a socket subscribed to public.entities; calls `onChange` with each changed row's name. */
async function subscriber(
  url: string,
  headers: Record<string, string>,
  onChange: (name: string) => void,
): Promise<WebSocket> {
  const socket = new WebSocket(url, { headers })
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as {
        type: string
        rows?: Array<{ name: string }>
      }
      if (message.type === 'subscribed') resolve()
      if (message.type === 'change') for (const row of message.rows ?? []) onChange(row.name)
    })
    socket.addEventListener('open', () =>
      socket.send(JSON.stringify({ type: 'subscribe', table: 'public.entities' })),
    )
    socket.addEventListener('error', () => reject(new Error('a subscriber could not connect')))
  })
  return socket
}

export async function realtimeBench(report: Report): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-bench-realtime-'))
  const server = await startChildServer({
    dataDir,
    port: PORT,
    readyTimeoutMs: 120_000,
    // 1,000 writes in well under a minute: the per-principal write budget would refuse most;
    // and every subscriber is the owner's, past the per-person socket cap (default 20).
    env: { API_WRITES_PER_MINUTE: '1000000', REALTIME_SOCKETS_PER_USER: String(SUBSCRIBERS) },
  })
  const sockets: WebSocket[] = []
  try {
    const owner = await signedInHttpMember(server, 'Realtime Bench Firm')
    const url = `ws://localhost:${PORT}/api/v1/orgs/${owner.orgId}/realtime`
    const sentAt = new Map<string, number>()
    const latencies: number[] = []
    const writes: number[] = []
    let missing = SUBSCRIBERS * CHANGES
    let allArrived: () => void = () => {}
    const arrived = new Promise<void>((resolve) => (allArrived = resolve))
    const onChange = (name: string) => {
      const t0 = sentAt.get(name)
      if (t0 === undefined) return
      latencies.push(performance.now() - t0)
      if (--missing === 0) allArrived()
    }
    for (let i = 0; i < SUBSCRIBERS; i++)
      sockets.push(await subscriber(url, owner.headers, onChange))

    for (let i = 0; i < CHANGES; i++) {
      const name = `bench-${i}`
      sentAt.set(name, performance.now())
      const res = await fetch(`${server.origin}/api/v1/orgs/${owner.orgId}/entities`, {
        method: 'POST',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'bench', name }),
      })
      if (res.status !== 201) throw new Error(`creating an entity answered ${res.status}`)
      writes.push(performance.now() - (sentAt.get(name) ?? 0))
    }
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), 60_000).unref(),
    )
    if ((await Promise.race([arrived, timeout])) === 'timeout') {
      throw new Error(`${missing} of ${SUBSCRIBERS * CHANGES} deliveries never arrived`)
    }
    latencies.sort((a, b) => a - b)
    const note = `${SUBSCRIBERS} subscribers × ${CHANGES} changes`
    report('realtime_fanout_p50_ms', quantile(latencies, 0.5), 'ms', `${note}; target ≤ 50`)
    report('realtime_fanout_p95_ms', quantile(latencies, 0.95), 'ms', `${note}; target ≤ 200`)
    writes.sort((a, b) => a - b)
    report(
      'realtime_write_p50_ms',
      quantile(writes, 0.5),
      'ms',
      'the write request alone, for scale',
    )
  } finally {
    for (const socket of sockets) socket.close()
    await server.stop('SIGTERM')
    await rm(dataDir, { recursive: true, force: true })
  }
}
