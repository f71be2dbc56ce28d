import { afterAll, describe, expect, it } from 'vitest'
import { WorkerPool } from '../../workers/worker-pool'
import { createAnalyzer } from './create-analyzer'
import { LocalAnalyzer } from './local-analyzer'
import { OpenAIAnalyzer } from './openai-analyzer'

const pool = new WorkerPool({ threads: 1 })
afterAll(() => pool.close())

describe('createAnalyzer', () => {
  it('builds the local engine on the shared pool', () => {
    expect(createAnalyzer({ engine: 'local' }, pool)).toBeInstanceOf(LocalAnalyzer)
  })

  it('builds the openai engine from a base URL and model', () => {
    const analyzer = createAnalyzer(
      { engine: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
      pool,
    )
    expect(analyzer).toBeInstanceOf(OpenAIAnalyzer)
  })
})
