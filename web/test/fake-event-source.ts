/**
 * Test helper: a stand-in for the browser's EventSource (jsdom has none), installed on
 * globalThis with vi.stubGlobal (undone by vi.unstubAllGlobals). Tests reach each opened stream
 * through `FakeEventSource.opened` and push messages into it, or close it as a failed reconnect
 * would.
 */
import { vi } from 'vitest'

export class FakeEventSource {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  /** Every stream opened since install(), oldest first. */
  static opened: FakeEventSource[] = []
  readyState = FakeEventSource.OPEN
  onmessage: ((event: MessageEvent<string>) => void) | null = null
  onerror: ((event: Event) => void) | null = null

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this)
  }

  /** Delivers one `data:` message holding `body` as JSON. */
  send(body: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(body) }))
  }

  /** Ends the stream as the browser does when it gives up reconnecting. */
  fail(): void {
    this.readyState = FakeEventSource.CLOSED
    this.onerror?.(new Event('error'))
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED
  }

  /** Installs the fake as the global EventSource, forgetting earlier streams. */
  static install(): void {
    FakeEventSource.opened = []
    vi.stubGlobal('EventSource', FakeEventSource)
  }
}
