import { describe, expect, it } from 'vitest'
import { createAnalyzer } from './create-analyzer'
import { LocalAnalyzer } from './local-analyzer'
import { OpenAIAnalyzer } from './openai-analyzer'

describe('createAnalyzer', () => {
  it('builds the local engine by default configuration', async () => {
    const analyzer = createAnalyzer({ engine: 'local' })
    expect(analyzer).toBeInstanceOf(LocalAnalyzer)
    await analyzer.close?.()
  })

  it('builds the openai engine from a base URL and model', () => {
    const analyzer = createAnalyzer({
      engine: 'openai',
      baseUrl: 'http://127.0.0.1:1/v1',
      chatModel: 'm',
    })
    expect(analyzer).toBeInstanceOf(OpenAIAnalyzer)
  })

  it('names the missing settings when openai is chosen without them', () => {
    expect(() => createAnalyzer({ engine: 'openai' })).toThrow(/AI_BASE_URL and AI_CHAT_MODEL/)
    expect(() => createAnalyzer({ engine: 'openai', baseUrl: 'http://x' })).toThrow(
      /needs AI_CHAT_MODEL/,
    )
  })
})
