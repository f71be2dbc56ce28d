import { afterEach, describe, expect, it } from 'vitest'
import { analyzeLocal } from './local/analyze-local'
import { LocalAnalyzer } from './local-analyzer'
import { RISKY_SERVICES_AGREEMENT, UNICODE_CRLF_AGREEMENT, longContract } from './test-contracts'

const analyzers: LocalAnalyzer[] = []
function newAnalyzer(): LocalAnalyzer {
  const analyzer = new LocalAnalyzer()
  analyzers.push(analyzer)
  return analyzer
}

afterEach(async () => {
  await Promise.all(analyzers.splice(0).map((analyzer) => analyzer.close()))
})

function withoutDuration<T extends { durationMs: number }>(result: T): Omit<T, 'durationMs'> {
  const { durationMs: _, ...rest } = result
  return rest
}

describe('LocalAnalyzer', () => {
  it('produces the same result in its worker as analyzeLocal in process', async () => {
    const analyzer = newAnalyzer()
    for (const content of [RISKY_SERVICES_AGREEMENT, UNICODE_CRLF_AGREEMENT]) {
      const fromWorker = await analyzer.analyze(content, 'full')
      expect(withoutDuration(fromWorker)).toEqual(withoutDuration(analyzeLocal(content, 'full')))
    }
  })

  it('keeps the event loop responsive while a big document is analysed', async () => {
    const analyzer = newAnalyzer()
    await analyzer.analyze('Warm-up.', 'summarize')
    let ticks = 0
    let ticking = true
    const tick = () => {
      ticks += 1
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    const result = await analyzer.analyze(longContract(300_000), 'full')
    ticking = false
    expect(result.summary.sentences.length).toBeGreaterThan(0)
    // A blocked loop would tick once or twice; a free one ticks many times during the analysis.
    expect(ticks).toBeGreaterThan(20)
  })

  it('queues jobs on one worker and answers each with its own result', async () => {
    const analyzer = newAnalyzer()
    const [a, b] = await Promise.all([
      analyzer.analyze(RISKY_SERVICES_AGREEMENT, 'clauses'),
      analyzer.analyze(UNICODE_CRLF_AGREEMENT, 'clauses'),
    ])
    expect(a.keyTerms.governingLaw?.value).toBe('New York')
    expect(b.keyTerms.governingLaw?.value).toBe('Ontario')
  })

  it('rejects an aborted job with the abort reason and carries on with the next', async () => {
    const analyzer = newAnalyzer()
    const controller = new AbortController()
    const running = analyzer.analyze(longContract(300_000), 'full', controller.signal)
    const queued = analyzer.analyze(RISKY_SERVICES_AGREEMENT, 'clauses')
    controller.abort(new Error('user cancelled'))
    await expect(running).rejects.toThrow('user cancelled')
    await expect(queued).resolves.toMatchObject({ engine: 'local' })
    await expect(analyzer.analyze('x', 'full', AbortSignal.abort())).rejects.toThrow()
  })

  it('rejects pending and later jobs once closed', async () => {
    const analyzer = newAnalyzer()
    const pending = expect(analyzer.analyze(longContract(100_000), 'full')).rejects.toThrow(
      /shut down/,
    )
    await analyzer.close()
    await pending
    await expect(analyzer.analyze('x', 'full')).rejects.toThrow(/shut down/)
  })
})
