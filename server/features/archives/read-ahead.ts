/**
 * Reading ahead of a slow consumer with bounded memory: the export's database pages are read while
 * the archive is still busy with earlier entries (its stored files above all), so the database
 * thread and the archive writer work at the same time instead of in turns (decision 0088).
 */

/** An iterator over what `readAhead` has read; `close` must be called once it is no longer read. */
export interface ReadAhead<T> {
  /** The next item in the source's order; rejects with the source's failure once the items read before it are taken. */
  next(): Promise<IteratorResult<T, undefined>>
  /** Stops reading (an item being read is awaited and dropped) and resolves once the source has ended. */
  close(): Promise<void>
}

/**
 * Starts pulling items from `source` at once, one at a time, and holds them until taken through
 * `next()`, pausing while the items held weigh `budget` or more in total (`weigh(item)`, in the
 * caller's unit: characters of text for the export). One item is always read, however heavy, so
 * the memory held is below `budget` plus the heaviest item plus the one being read.
 */
export function readAhead<T>(
  source: AsyncIterable<T>,
  weigh: (item: T) => number,
  budget: number,
): ReadAhead<T> {
  const held: T[] = []
  let weight = 0
  let ended = false
  let stopped = false
  let failure: { error: unknown } | null = null
  // Whoever waits (the pump for room, a reader for an item) waits on this until the other side moves.
  let moved: () => void = () => undefined
  let change = new Promise<void>((resolve) => (moved = resolve))
  const notify = () => {
    moved()
    change = new Promise<void>((resolve) => (moved = resolve))
  }

  const pumping = (async () => {
    try {
      for await (const item of source) {
        if (stopped) return
        held.push(item)
        weight += weigh(item)
        notify()
        while (weight >= budget && !stopped) await change
        if (stopped) return
      }
    } catch (error) {
      failure = { error }
    } finally {
      ended = true
      notify()
    }
  })()

  return {
    async next() {
      for (;;) {
        if (held.length > 0) {
          const item = held.shift() as T
          weight -= weigh(item)
          notify()
          return { done: false, value: item }
        }
        if (failure) throw failure.error
        if (ended || stopped) return { done: true, value: undefined }
        await change
      }
    },
    async close() {
      stopped = true
      held.length = 0
      notify()
      await pumping
    },
  }
}
