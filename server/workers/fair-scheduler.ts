/**
 * The order in which the worker pool's tasks get a thread: fair between organisations, not first
 * come, first served (issue 41, decision 0107). Under FIFO one firm's scan, read page after page
 * on every slot, kept another firm's upload waiting for a page to end (2-3 s instead of 30 ms).
 *
 * Each request names its share (an organisation id, or '' for the server's own work) and waits in
 * its share's queue (FIFO within a share). When a slot is free the next task is taken:
 * 1. from the share running fewest tasks now (least-running first: a share holding nothing goes
 *    before one holding a slot, whoever queued first);
 * 2. among equals, from the share served least recently (a share never served, or idle since, is
 *    first): a round-robin between the shares that wait, as the job runner claims its jobs
 *    (job-store.ts claimNextJob: running count, then last start).
 * Tasks are not preempted, so a share holding every slot with long tasks (a page of OCR: seconds)
 * would still keep a newcomer waiting for one of them to end. Hence the spare slot(s): past
 * `slots` tasks, up to `spare` more may run, each only for a share running nothing at the moment
 * it starts. An organisation that holds nothing is never queued behind another's long work; one
 * that already holds a slot waits for its fair turn like everyone else.
 */

/** Gives back the slot a request was granted; calling it again does nothing. */
export type ReleaseSlot = () => void

interface Waiter {
  share: string
  start: (release: ReleaseSlot) => void
}

export class FairScheduler {
  /** Requests waiting, per share, in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>()
  /** Slots held, per share (a share holding none has no entry). */
  private readonly running = new Map<string, number>()
  /** When each share was last served (a dispatch count); forgotten once a share is idle. */
  private readonly lastServed = new Map<string, number>()
  private dispatched = 0
  private held = 0
  private queuedCount = 0

  /**
   * `slots`: tasks that run at once (at least 1); `spare`: how many more may run, each for a share
   * running nothing (default 1; 0 makes the scheduler only fair, never above `slots`).
   */
  constructor(
    readonly slots: number,
    readonly spare = 1,
  ) {}

  /**
   * Resolves with the release of a slot once `share` may run one task; the caller runs it, then
   * calls the release. Rejects with `signal`'s reason when it aborts before the slot is granted
   * (the request leaves the queue; a slot granted already is the caller's to release).
   */
  acquire(share: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error)
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        share,
        start: (release) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(release)
        },
      }
      const onAbort = () => {
        const queue = this.waiting.get(share)
        const index = queue?.indexOf(waiter) ?? -1
        if (!queue || index < 0) return
        queue.splice(index, 1)
        this.queuedCount -= 1
        if (queue.length === 0) this.waiting.delete(share)
        this.forgetIfIdle(share)
        reject(signal!.reason as Error)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const queue = this.waiting.get(share)
      if (queue) queue.push(waiter)
      else this.waiting.set(share, [waiter])
      this.queuedCount += 1
      this.dispatch()
    })
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.queuedCount
  }

  /** Slots held now (at most slots + spare). */
  get active(): number {
    return this.held
  }

  /** Slots held by `share` now. */
  runningOf(share: string): number {
    return this.running.get(share) ?? 0
  }

  /** Grants free slots to the waiting requests, in the order of the module's rules. */
  private dispatch(): void {
    while (this.held < this.slots + this.spare) {
      const full = this.held >= this.slots
      let chosen: string | undefined
      for (const share of this.waiting.keys()) {
        const running = this.runningOf(share)
        // Past `slots`, only a share running nothing may start (on a spare slot).
        if (full && running > 0) continue
        if (chosen === undefined || this.before(share, chosen)) chosen = share
      }
      if (chosen === undefined) return
      const queue = this.waiting.get(chosen)!
      const waiter = queue.shift()!
      if (queue.length === 0) this.waiting.delete(chosen)
      this.queuedCount -= 1
      this.held += 1
      this.running.set(chosen, this.runningOf(chosen) + 1)
      this.dispatched += 1
      this.lastServed.set(chosen, this.dispatched)
      waiter.start(this.releaser(chosen))
    }
  }

  /** Whether share `a` is served before share `b`: fewer running, then served longer ago. */
  private before(a: string, b: string): boolean {
    const [ra, rb] = [this.runningOf(a), this.runningOf(b)]
    if (ra !== rb) return ra < rb
    return (this.lastServed.get(a) ?? 0) < (this.lastServed.get(b) ?? 0)
  }

  private releaser(share: string): ReleaseSlot {
    let released = false
    return () => {
      if (released) return
      released = true
      this.held -= 1
      const running = this.runningOf(share) - 1
      if (running > 0) this.running.set(share, running)
      else this.running.delete(share)
      this.forgetIfIdle(share)
      this.dispatch()
    }
  }

  /** Drops what is kept of a share that neither runs nor waits, so the maps hold active shares only. */
  private forgetIfIdle(share: string): void {
    if (!this.running.has(share) && !this.waiting.has(share)) this.lastServed.delete(share)
  }
}
