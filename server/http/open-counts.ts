/**
 * Long-lived connections counted by who holds them (a user, an organisation, a client), each key
 * capped: the one tally behind the caps of event streams (event-streams.ts, issue 29) and of
 * realtime WebSockets (features/realtime, issue 41). Counts live in this process only: behind a
 * load balancer each instance caps on its own. Keys reaching 0 are forgotten, so the map holds
 * only the keys with something open.
 */
export class OpenCounts {
  private readonly counts = new Map<string, number>()

  /** How many `key` holds open now. */
  held(key: string): number {
    return this.counts.get(key) ?? 0
  }

  /**
   * Counts one more for `key` if it holds fewer than `cap`, and returns the function that gives
   * the place back (calling it again does nothing); returns null, counting nothing, at the cap.
   */
  take(key: string, cap: number): (() => void) | null {
    if (this.held(key) >= cap) return null
    this.add(key, 1)
    let given = false
    return () => {
      if (given) return
      given = true
      this.add(key, -1)
    }
  }

  private add(key: string, delta: number): void {
    const next = this.held(key) + delta
    if (next > 0) this.counts.set(key, next)
    else this.counts.delete(key)
  }
}
