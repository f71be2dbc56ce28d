import { afterAll, describe, expect, it } from 'vitest'
import { WorkerPool } from '../../workers/worker-pool'
import { analyzeLocal } from './local/analyze-local'
import { LocalAnalyzer } from './local-analyzer'
import {
  RISKY_SERVICES_AGREEMENT,
  UNICODE_CRLF_AGREEMENT,
  longContract,
} from '../../test/test-contracts'

const pool = new WorkerPool({ threads: 1 })
afterAll(() => pool.close())
const analyzer = new LocalAnalyzer(pool)

function withoutDuration<T extends { durationMs: number }>(result: T): Omit<T, 'durationMs'> {
  const { durationMs: _, ...rest } = result
  return rest
}

describe('LocalAnalyzer', () => {
  it('produces the same result on the pool as analyzeLocal in process', async () => {
    for (const content of [RISKY_SERVICES_AGREEMENT, UNICODE_CRLF_AGREEMENT]) {
      const fromPool = await analyzer.analyze(content, 'full')
      expect(withoutDuration(fromPool)).toEqual(withoutDuration(analyzeLocal(content, 'full')))
    }
  })

  it('answers queued analyses each with its own result', async () => {
    const [a, b] = await Promise.all([
      analyzer.analyze(RISKY_SERVICES_AGREEMENT, 'clauses'),
      analyzer.analyze(UNICODE_CRLF_AGREEMENT, 'clauses'),
    ])
    expect(a.keyTerms.governingLaw?.value).toBe('New York')
    expect(b.keyTerms.governingLaw?.value).toBe('Ontario')
  })

  it('reports progress from the pool thread', async () => {
    const fractions: number[] = []
    await analyzer.analyze(RISKY_SERVICES_AGREEMENT, 'full', {
      onProgress: (fraction) => fractions.push(fraction),
    })
    await expect.poll(() => fractions.at(-1)).toBe(1)
    expect(fractions[0]).toBeLessThan(1)
  })

  it('rejects an aborted analysis with the abort reason and carries on with the next', async () => {
    const controller = new AbortController()
    const running = analyzer.analyze(longContract(300_000), 'full', { signal: controller.signal })
    const queued = analyzer.analyze(RISKY_SERVICES_AGREEMENT, 'clauses')
    controller.abort(new Error('user cancelled'))
    await expect(running).rejects.toThrow('user cancelled')
    await expect(queued).resolves.toMatchObject({ engine: 'local' })
    await expect(analyzer.analyze('x', 'full', { signal: AbortSignal.abort() })).rejects.toThrow()
  })

  it("stops an analysis at the pool's task timeout with a 422 the user can read", async () => {
    const strict = new WorkerPool({ threads: 1, taskTimeoutMs: 50 })
    try {
      const error = await new LocalAnalyzer(strict)
        .analyze(longContract(3_000_000), 'full')
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'analysis_timeout', status: 422 })
      expect((error as Error).message).toContain('WORKER_TASK_TIMEOUT_S')
    } finally {
      await strict.close()
    }
  })
})
