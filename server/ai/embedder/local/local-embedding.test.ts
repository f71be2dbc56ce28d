import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { embedLocal, LOCAL_DIM } from './local-embedding'
import { wordTable } from './word-table'

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0)
const embed = (text: string) => embedLocal(wordTable(), text)

describe('local embeddings', () => {
  it('are 384 numbers of unit length, zero for a text without words', () => {
    const v = embed('The Supplier shall indemnify the Customer.')
    expect(v).toHaveLength(LOCAL_DIM)
    expect(cosine(v, v)).toBeCloseTo(1, 6)
    expect(embed('12 34 --').every((x) => x === 0)).toBe(true)
  })

  it('place texts with related but different words closer than unrelated ones', () => {
    const query = embed('mediation of disputes')
    const related = embed('any controversy shall be settled by arbitration')
    const unrelated = embed('the price of the goods is payable monthly')
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.1)
  })

  it('match word forms through character trigrams', () => {
    const a = embed('terminate')
    expect(cosine(a, embed('termination'))).toBeGreaterThan(cosine(a, embed('payment')) + 0.2)
  })

  it('ship a committed vector file under 20 MB', () => {
    const file = fileURLToPath(new URL('./word-vectors.bin', import.meta.url))
    expect(statSync(file).size).toBeLessThan(20 * 1024 * 1024)
  })
})
