import { describe, expect, it, vi } from 'vitest'
import { principalOf, signedInMember, testAppForFile } from '../../test/test-app'
import { pasteDocument } from '../../test/pasted-document'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { LocalAnalyzer } from '../../ai/analyzer/local-analyzer'
import type { AppServices } from '../../services'
import { createReview } from './service'
import { fillReview } from './review-fill-job'

// Counts the fill's whole-review counts (cellCounts reads every cell of the review).
const counted = vi.hoisted(() => ({ calls: 0 }))
vi.mock('./service', async (importOriginal) => {
  const original = await importOriginal<typeof import('./service')>()
  return {
    ...original,
    cellCounts: (...args: Parameters<typeof original.cellCounts>) => {
      counted.calls += 1
      return original.cellCounts(...args)
    },
  }
})

const t = await testAppForFile()

/** A job service that queues nothing (the test runs the fill itself). */
const parkedJobs = {
  enqueue: async () => ({ id: crypto.randomUUID(), status: 'queued' }),
} as unknown as AppServices['jobs']

describe('the fill’s cost per document', () => {
  it('counts the whole review a fixed number of times, not once per document', async () => {
    const m = await signedInMember(t, 'Counting firm')
    const principal = principalOf(m)
    const documentIds: string[] = []
    for (let i = 0; i < 6; i += 1) {
      const content = SAMPLE_CONTRACT.replace('2024', `${2010 + i}`)
      documentIds.push(await pasteDocument(t, m, `Contract ${i}`, content))
    }
    const review = await createReview({ db: t.database.db, jobs: parkedJobs }, principal, {
      name: 'Counted',
      rows: { source: 'selection', documentIds },
      columns: [{ preset: 'term:parties' }, { preset: 'term:governingLaw' }],
    })
    const progress: number[] = []
    counted.calls = 0
    const counts = await fillReview(
      { db: t.database.db, analyzer: new LocalAnalyzer(t.pool) },
      principal,
      review.fillJob!.id,
      review.id,
      { signal: new AbortController().signal, progress: (fraction) => progress.push(fraction) },
    )
    // Once at the start, once at the end (the old fill counted after every document too: 7).
    expect(counted.calls).toBe(2)
    expect(counts.total).toBe(12)
    expect(counts.answered + counts.notFound + counts.failed + counts.unverified).toBe(12)
    // The progress it kept by adding each document's cells is the counted one.
    expect(progress).toEqual([2, 4, 6, 8, 10, 12].map((done) => done / 12))
  })
})
