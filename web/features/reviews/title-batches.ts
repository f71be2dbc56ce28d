import { TITLE_LIMIT } from './api'

/**
 * The documents whose titles the rows at grid indices `drawn` need, in batches of one read each:
 * the rows of a page of cells (perPage rows from a multiple of it) by the TITLE_LIMIT, each batch
 * the ids of all its rows that `titles` does not know, so a batch is the same whichever of its
 * rows are drawn (one cached read as the grid scrolls within it). Rows not read yet are skipped.
 */
export function titleBatches(
  drawn: readonly number[],
  rowsByIndex: ReadonlyMap<number, { documentId: string }>,
  perPage: number,
  titles: ReadonlyMap<string, string>,
): string[][] {
  const batchOf = (index: number) => {
    const page = Math.floor(index / perPage)
    const first = page * perPage + Math.floor((index - page * perPage) / TITLE_LIMIT) * TITLE_LIMIT
    return [first, Math.min(first + TITLE_LIMIT, (page + 1) * perPage)] as const
  }
  const starts = new Map<number, number>()
  for (const index of drawn) {
    if (!rowsByIndex.has(index)) continue
    const [first, end] = batchOf(index)
    starts.set(first, end)
  }
  const batches: string[][] = []
  for (const [first, end] of [...starts].sort(([a], [b]) => a - b)) {
    const ids = new Set<string>()
    for (let index = first; index < end; index += 1) {
      const id = rowsByIndex.get(index)?.documentId
      if (id && !titles.has(id)) ids.add(id)
    }
    if (ids.size > 0) batches.push([...ids])
  }
  return batches
}
