import { describe, expect, it } from 'vitest'
import { titleBatches } from './title-batches'

/** Rows 0…n − 1 read, row i of document `d<i>`. */
const rowsOf = (n: number) =>
  new Map(Array.from({ length: n }, (_, i) => [i, { documentId: `d${i}` }] as const))
const ids = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `d${from + i}`)

describe('titleBatches', () => {
  it('batches the rows of a page of cells by the hundred, the whole batch whichever rows are drawn', () => {
    // One column: a page of cells is 1,000 rows; rows 250–260 drawn fall in its batch 200–299.
    const drawn = Array.from({ length: 11 }, (_, i) => 250 + i)
    expect(titleBatches(drawn, rowsOf(2000), 1000, new Map())).toEqual([ids(200, 300)])
    // Drawn across two batches: two reads, in row order.
    expect(titleBatches([310, 290], rowsOf(2000), 1000, new Map())).toEqual([
      ids(200, 300),
      ids(300, 400),
    ])
  })

  it('keeps a batch within its page of cells, and leaves out known titles and unread rows', () => {
    // 20 columns: pages of 50 rows, so rows 45–55 are two pages and two batches.
    const known = new Map(ids(0, 48).map((id) => [id, 'Known'] as const))
    expect(titleBatches([45, 55], rowsOf(100), 50, known)).toEqual([ids(48, 50), ids(50, 100)])
    // Every title known, or the row's page not read yet: no read.
    const allKnown = new Map(ids(0, 50).map((id) => [id, 'Known'] as const))
    expect(titleBatches([10], rowsOf(100), 50, allKnown)).toEqual([])
    expect(titleBatches([150], rowsOf(100), 50, new Map())).toEqual([])
  })
})
