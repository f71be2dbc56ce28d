/** Test helper: a scriptable XMLHttpRequest standing in for the network during uploads. */
import { vi } from 'vitest'

/** One fake request; drive it with `progress()` and `respond()`. */
export class FakeXhr {
  /** Every request created since the last `installFakeXhr()`, in order. */
  static instances: FakeXhr[] = []
  method = ''
  url = ''
  body: unknown = null
  status = 0
  statusText = ''
  responseText = ''
  headers: Record<string, string> = {}
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null

  constructor() {
    FakeXhr.instances.push(this)
  }
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: unknown) {
    this.body = body
  }
  abort() {
    this.onabort?.()
  }
  /** Reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(
      new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
    )
  }
  /** Completes the request with `status` and a JSON body. */
  respond(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.()
  }
}

/**
 * Replaces the global XMLHttpRequest with `FakeXhr` and empties `FakeXhr.instances`; the stub is
 * undone after each test by web/test/setup.ts.
 */
export function installFakeXhr(): void {
  FakeXhr.instances = []
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
}
