/**
 * readAhead: items come out in the source's order, the source is read before they are asked for
 * but never past the budget, a failure comes after the items read before it, and close ends the
 * source.
 */
import { describe, expect, it } from 'vitest'
import { readAhead } from './read-ahead'

/** A source of `items` that records which it has handed out and whether it was ended. */
function recorded<T>(items: T[], failAfter?: number) {
  const log = { pulled: [] as T[], ended: false }
  const source = (async function* () {
    try {
      for (const [i, item] of items.entries()) {
        if (i === failAfter) throw new Error('source failed')
        log.pulled.push(item)
        yield item
      }
    } finally {
      log.ended = true
    }
  })()
  return { source, log }
}

/** Resolves once `check` holds, letting the pump run between looks (no timers). */
async function until(check: () => boolean) {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve))
  expect(check()).toBe(true)
}

describe('readAhead', () => {
  it('hands out every item in order, then ends', async () => {
    const { source, log } = recorded(['a', 'bb', 'ccc'])
    const reads = readAhead(source, (s) => s.length, 100)
    const got: string[] = []
    for (let next = await reads.next(); !next.done; next = await reads.next()) got.push(next.value)
    expect(got).toEqual(['a', 'bb', 'ccc'])
    await reads.close()
    expect(log.ended).toBe(true)
  })

  it('reads ahead before it is asked, but stops once what it holds weighs the budget', async () => {
    const { source, log } = recorded([4, 4, 4, 4, 4, 4])
    const reads = readAhead(source, (n) => n, 10)
    // 4 + 4 < 10, so a third item is read; 12 ≥ 10, so no fourth until one is taken.
    await until(() => log.pulled.length === 3)
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    expect(log.pulled).toHaveLength(3)
    expect(await reads.next()).toEqual({ done: false, value: 4 })
    await until(() => log.pulled.length === 4)
    await reads.close()
  })

  it('always holds one item, however heavy', async () => {
    const { source, log } = recorded([50, 1])
    const reads = readAhead(source, (n) => n, 10)
    expect(await reads.next()).toEqual({ done: false, value: 50 })
    expect(await reads.next()).toEqual({ done: false, value: 1 })
    expect((await reads.next()).done).toBe(true)
    expect(log.pulled).toEqual([50, 1])
    await reads.close()
  })

  it("hands out the items read before the source's failure, then rejects with it", async () => {
    const { source } = recorded(['a', 'b', 'c'], 2)
    const reads = readAhead(source, () => 1, 100)
    expect(await reads.next()).toEqual({ done: false, value: 'a' })
    expect(await reads.next()).toEqual({ done: false, value: 'b' })
    await expect(reads.next()).rejects.toThrow('source failed')
    await reads.close()
  })

  it('stops reading and ends the source when closed early, dropping what it held', async () => {
    const { source, log } = recorded([1, 1, 1, 1, 1, 1, 1, 1], undefined)
    const reads = readAhead(source, (n) => n, 2)
    expect(await reads.next()).toEqual({ done: false, value: 1 })
    await reads.close()
    expect(log.ended).toBe(true)
    expect(log.pulled.length).toBeLessThan(8)
    expect((await reads.next()).done).toBe(true)
  })

  it('closes quietly when the source failed and nothing was taken', async () => {
    const { source, log } = recorded(['a'], 0)
    const reads = readAhead(source, () => 1, 10)
    await reads.close()
    expect(log.ended).toBe(true)
  })
})
