/** joinChunks: the same bytes in the same order, in chunks of at least the size asked but the last. */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { joinChunks } from './join-chunks'

/** Every chunk `joinChunks` makes of `chunks` at `size`. */
async function joined(chunks: Buffer[], size: number) {
  const out: Buffer[] = []
  for await (const chunk of joinChunks(
    (async function* () {
      yield* chunks
    })(),
    size,
  ))
    out.push(chunk)
  return out
}

describe('joinChunks', () => {
  it('joins small chunks into chunks of at least the size, the last one smaller', async () => {
    const chunks = Array.from({ length: 10 }, () => randomBytes(300))
    const out = await joined(chunks, 1000)
    expect(out.map((chunk) => chunk.length)).toEqual([1200, 1200, 600])
    expect(Buffer.concat(out).equals(Buffer.concat(chunks))).toBe(true)
  })

  it('passes a chunk already as large as the size on its own, and nothing for an empty source', async () => {
    const big = randomBytes(5000)
    const out = await joined([big, randomBytes(10)], 1000)
    expect(out.map((chunk) => chunk.length)).toEqual([5000, 10])
    expect(out[0]!.equals(big)).toBe(true)
    expect(await joined([], 1000)).toEqual([])
  })
})
