/**
 * The process's stop, as the parts of the app see it (issue 28, decision 0068): `drain(timeoutMs)`
 * starts a graceful stop that must end within `timeoutMs` (SHUTDOWN_TIMEOUT_S). From then on
 * `/readyz` answers 503 `shutting_down` (the load balancer takes the instance out), the job runner
 * claims nothing new, and `remainingMs()` tells how much of the budget is left for running jobs to
 * finish before they are handed back. Without a drain (tests closing an app) nothing waits.
 */
export class Lifecycle {
  private deadline: number | null = null
  private readonly listeners: Array<() => void> = []

  /** Whether a stop has begun. */
  get draining(): boolean {
    return this.deadline !== null
  }

  /** Milliseconds left of the stop's budget; 0 when no stop has begun or the budget is spent. */
  remainingMs(): number {
    return this.deadline === null ? 0 : Math.max(0, this.deadline - Date.now())
  }

  /** Begins the stop (once; later calls change nothing) and tells every `onDrain` listener. */
  drain(timeoutMs: number): void {
    if (this.deadline !== null) return
    this.deadline = Date.now() + timeoutMs
    for (const listener of this.listeners.splice(0)) listener()
  }

  /** Calls `listener` when the stop begins. */
  onDrain(listener: () => void): void {
    this.listeners.push(listener)
  }
}
