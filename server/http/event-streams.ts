/**
 * Every server-sent event stream of the API (text/event-stream, WHATWG HTML §9.2) goes through one
 * EventStreams (issue 29, point 5): a member opening a thousand job streams held the server for
 * every other organisation. Since decision 0125 jobs are followed over the realtime WebSocket and
 * the only stream left is the assistant's answer, whose tokens stream; it keeps the same guard:
 * open streams are capped per user and per organisation, each stream
 * gets keep-alive comments from one shared timer (proxies drop idle connections), and whatever a
 * stream holds is released when it closes, however it closes.
 *
 * Counting cannot be forgotten by a later stream: `register` gives every route whose schema
 * `produces` text/event-stream an admission preHandler, which runs after the role check and body
 * validation but before the handler does any work (the chat stream stores the question first), and
 * `open` refuses a request that was not admitted. A refused stream is a 429 problem with
 * Retry-After; the place is given back on the response's 'close' (client gone, stream ended,
 * error answer).
 *
 * Before all that, a gate counts the stream requests each client has under way or open, by the
 * credential it sends (`clientKey`, given at composition: auth/credential-key.ts takes the
 * credential header or session cookie, else the address). One credential acts for one
 * user, so once it holds the per-user cap its next stream would be refused anyway: the gate, an
 * onRequest hook registered before the principal is resolved, refuses it with the same 429
 * problem without looking the credential up. A burst of thousands of requests from one source is
 * the load balancer's to refuse (deploy/haproxy.cfg, docs/deploying.md); the gate that answered
 * such bursts in the HTTP server's request listener, before Fastify (decisions 0078, 0081), was
 * removed with the per-job streams it was built for (decision 0135).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { Principal } from '../db/tenant'
import { AppError } from '../errors/app-error'
import { problemResponse } from './problem-responses'
import { OpenCounts } from './open-counts'

/** Caps of open streams and the keep-alive period. */
export interface EventStreamLimits {
  /** Streams one user may hold open at once, over all their organisations. */
  perUser: number
  /** Streams the members of one organisation may hold open at once. */
  perOrg: number
  /** Period of the keep-alive comment on every open stream (ms). */
  keepAliveMs: number
}

/**
 * Defaults: a person rarely waits on more than a few answers at once (one per open page, and
 * browsers open at most 6 connections per origin over HTTP/1.1), so 10; 100 for a firm. A keep-alive every 15 s
 * stays well under common proxy idle timeouts (nginx proxy_read_timeout 60 s, AWS ALB 60 s).
 */
export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = {
  perUser: 10,
  perOrg: 100,
  keepAliveMs: 15_000,
}

/** Seconds a refused client is told to wait: streams end when their answer does, typically soon. */
const RETRY_AFTER_S = 10

const TOO_MANY_RESPONSE = problemResponse(
  'Too many event streams open (code too_many_streams): the caller already holds EVENT_STREAMS_PER_USER, or the organisation EVENT_STREAMS_PER_ORG; Retry-After gives seconds to wait',
)

/** One open stream, as its route handler uses it. */
export interface EventStream {
  /** Sends `data` as one `data:` line of JSON; nothing once the stream has closed. */
  send(data: unknown): void
  /** Ends the stream, after a last `data:` line holding `lastData` as is (e.g. '[DONE]'). */
  end(lastData?: string): void
  /** Aborted when the stream closes for any reason: ended here, client gone, connection error. */
  readonly signal: AbortSignal
}

export class EventStreams {
  private readonly byUser = new OpenCounts()
  private readonly byOrg = new OpenCounts()
  /** Stream requests under way or open, by clientKey. */
  private readonly byClient = new OpenCounts()
  /** `${method} ${url}` of every stream route, for the gate. */
  private readonly streamRoutes = new Set<string>()
  private readonly admitted = new WeakSet<FastifyRequest>()
  private readonly live = new Set<ServerResponse>()
  private keepAlive: NodeJS.Timeout | undefined
  private readonly limits: EventStreamLimits

  /**
   * `clientKey` names who sent a request (its headers and address) without any lookup (same
   * credential, same key); the gate counts stream requests by it.
   */
  constructor(
    limits: Partial<EventStreamLimits>,
    private readonly clientKey: (req: { headers: IncomingHttpHeaders; ip: string }) => string,
  ) {
    this.limits = { ...DEFAULT_EVENT_STREAM_LIMITS, ...limits }
  }

  /**
   * Adds the admission check, and its 429 answer to the schema, to every route of `app` (and its
   * child scopes) declared after this call whose schema produces text/event-stream; ends open
   * streams when the app closes.
   */
  register(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const produces = (route.schema as { produces?: readonly string[] } | undefined)?.produces
      if (!produces?.includes('text/event-stream')) return
      for (const method of [route.method].flat()) this.streamRoutes.add(`${method} ${route.url}`)
      const own = route.preHandler ? [route.preHandler].flat() : []
      route.preHandler = [(req, reply, done) => done(this.admit(req, reply)), ...own]
      const response = (route.schema?.response ?? {}) as Record<string, unknown>
      route.schema = { ...route.schema, response: { ...response, 429: TOO_MANY_RESPONSE } }
    })
    app.addHook('onRequest', (req, reply, done) => {
      try {
        this.gate(req, reply)
        done()
      } catch (error) {
        done(error as Error)
      }
    })
    app.addHook('preClose', (done) => {
      for (const raw of this.live) raw.end()
      done()
    })
  }

  /**
   * Starts a 200 event stream on `reply` and returns it. The reply is hijacked, so Fastify's onSend
   * hooks no longer run: the headers already set on it (security headers, request id) are carried
   * over by hand, and proxies are told not to buffer. Call it once, before anything was sent.
   * Throws an Error when the route was not admitted (its schema does not produce
   * text/event-stream), so an uncounted stream fails at its first test.
   */
  open(req: FastifyRequest, reply: FastifyReply): EventStream {
    if (!this.admitted.has(req))
      throw new Error(
        `${req.method} ${req.routeOptions.url ?? req.url} opens an event stream but its schema does not declare produces: ['text/event-stream'], so its streams would not be counted`,
      )
    reply.hijack()
    const raw = reply.raw
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    const closed = new AbortController()
    this.live.add(raw)
    raw.once('close', () => {
      this.live.delete(raw)
      if (this.live.size === 0) this.stopKeepAlive()
      closed.abort()
    })
    this.startKeepAlive()
    const writable = () => !raw.writableEnded && !raw.destroyed
    return {
      signal: closed.signal,
      send: (data) => {
        if (writable()) raw.write(`data: ${JSON.stringify(data)}\n\n`)
      },
      end: (lastData) => {
        if (writable()) raw.end(lastData === undefined ? undefined : `data: ${lastData}\n\n`)
      },
    }
  }

  /**
   * The gate: on a stream route, counts the request against its client until its response
   * closes, or throws the per-user 429 (see the module comment).
   */
  private gate(req: FastifyRequest, reply: FastifyReply): void {
    if (!this.streamRoutes.has(`${req.method} ${req.routeOptions.url}`)) return
    if (!this.hold(this.clientKey(req), reply.raw)) throw tooMany(this.perUserDetail())
  }

  /** Counts a stream request of `key` until `res` closes; false, counting nothing, at the cap. */
  private hold(key: string, res: ServerResponse): boolean {
    const release = this.byClient.take(key, this.limits.perUser)
    if (!release) return false
    res.once('close', release)
    return true
  }

  private perUserDetail(): string {
    return `Too many live updates open: at most ${this.limits.perUser} live updates per person. Close another Lexdesk tab, or wait for an answer to finish, and try again in ${RETRY_AFTER_S} seconds.`
  }

  /** Counts the request's stream against its user and organisation, or returns the 429. */
  private admit(req: FastifyRequest, reply: FastifyReply): AppError | undefined {
    const principal = (req as FastifyRequest & { principal?: Principal }).principal
    if (!principal)
      return new AppError('internal_error', 'An event stream needs a signed-in caller.')
    const userKey = principal.userId ?? `${principal.orgId}:${principal.actorType}`
    const { perUser, perOrg } = this.limits
    const releaseUser = this.byUser.take(userKey, perUser)
    if (!releaseUser) return tooMany(this.perUserDetail())
    const releaseOrg = this.byOrg.take(principal.orgId, perOrg)
    if (!releaseOrg) {
      releaseUser()
      return tooMany(
        `Too many live updates open in this organisation: at most ${perOrg} live updates for all its members at once. Try again in ${RETRY_AFTER_S} seconds.`,
      )
    }
    this.admitted.add(req)
    reply.raw.once('close', () => {
      releaseUser()
      releaseOrg()
    })
    return undefined
  }

  private startKeepAlive(): void {
    if (this.keepAlive) return
    // A comment line (WHATWG HTML §9.2.6): ignored by EventSource, but traffic for proxies.
    this.keepAlive = setInterval(() => {
      for (const raw of this.live) if (!raw.writableEnded) raw.write(': keep-alive\n\n')
    }, this.limits.keepAliveMs)
    this.keepAlive.unref()
  }

  private stopKeepAlive(): void {
    clearInterval(this.keepAlive)
    this.keepAlive = undefined
  }
}

function tooMany(detail: string): AppError {
  return new AppError('too_many_streams', detail, { 'retry-after': String(RETRY_AFTER_S) })
}
