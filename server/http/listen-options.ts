/**
 * The options the server listens with (server/main.ts): its address plus a listen backlog as deep
 * as a burst of connections. Node's default backlog is 511: when one member opens 1,000 event
 * streams at once (issue 29) and the event loop is busy, the kernel's accept queue fills and
 * further connections' SYNs are dropped, every client's alike (another organisation's, the load
 * balancer's /readyz), each then waiting for its SYN's retransmission (1 s, then 3 s, 7 s).
 * Counted on the loaded 2-core machine: 921 listen overflows (`nstat TcpExtListenOverflows`) in
 * one such burst (decision 0081).
 */
import type { FastifyListenOptions } from 'fastify'

/**
 * Connections the kernel queues for the server to accept. Linux caps it at
 * `net.core.somaxconn` (4096 by default since Linux 5.4; raise it where it is lower).
 */
export const LISTEN_BACKLOG = 4096

/** `app.listen` options for `port` and `host` with LISTEN_BACKLOG. */
export function listenOptions(port: number, host: string): FastifyListenOptions {
  return { port, host, backlog: LISTEN_BACKLOG }
}
