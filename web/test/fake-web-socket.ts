/**
 * Test helper: a stand-in for the browser's WebSocket, installed for every web test by setup.ts
 * (jsdom's real one would try to connect and report the refusal as a console error). Tests reach
 * each socket through `FakeWebSocket.opened` (or `following`, for a followed job), open it, push
 * server messages into it, read what the page sent, and close it as the server would.
 */
import { vi } from 'vitest'

export class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSING = 2
  static readonly CLOSED = 3
  /** Every socket opened since install(), oldest first. */
  static opened: FakeWebSocket[] = []
  readyState = FakeWebSocket.CONNECTING
  /** Messages the page sent, parsed. */
  readonly sent: unknown[] = []

  constructor(readonly url: string) {
    super()
    FakeWebSocket.opened.push(this)
  }

  /** Completes the opening handshake. */
  open(): void {
    this.readyState = FakeWebSocket.OPEN
    this.dispatchEvent(new Event('open'))
  }

  /** Delivers one server message holding `body` as JSON. */
  receive(body: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(body) }))
  }

  /** Delivers a `job` message: a followed job's state (server/realtime/realtime-hub.ts). */
  sendJob(job: unknown): void {
    this.receive({ type: 'job', job })
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data))
  }

  /** Closes the socket (the page's close, or the server's with `code`). */
  close(code = 1000, reason = ''): void {
    if (this.readyState === FakeWebSocket.CLOSED) return
    this.readyState = FakeWebSocket.CLOSED
    this.dispatchEvent(new CloseEvent('close', { code, reason }))
  }

  /**
   * The page's newest socket once it follows job `jobId` (any job when omitted): opened if it was
   * still connecting, then waited on until it has sent its `follow` message.
   */
  static following(jobId?: string): Promise<FakeWebSocket> {
    return vi.waitFor(
      () => {
        const socket = FakeWebSocket.opened.at(-1)
        if (!socket) throw new Error('The page opened no socket yet')
        if (socket.readyState === FakeWebSocket.CONNECTING) socket.open()
        const follows = socket.sent.some((message) => {
          const { type, jobId: followed } = message as { type?: string; jobId?: string }
          return type === 'follow' && (jobId === undefined || followed === jobId)
        })
        if (!follows) throw new Error(`The page follows no job ${jobId ?? ''} yet`)
        return socket
      },
      { timeout: 5_000 },
    )
  }

  /** Installs the fake as the global WebSocket, forgetting earlier sockets. */
  static install(): void {
    FakeWebSocket.opened = []
    vi.stubGlobal('WebSocket', FakeWebSocket)
  }
}
