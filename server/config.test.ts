import { describe, expect, it } from 'vitest'
import path from 'node:path'
import { loadConfig } from './config'

describe('loadConfig', () => {
  it('applies the embedded defaults to an empty environment', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      ai: { engine: 'local' },
    })
  })

  it('derives PUBLIC_URL from PORT, treats empty strings as unset and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '4000', SMTP_URL: '' }).publicUrl).toBe('http://localhost:4000')
    expect(loadConfig({ PUBLIC_URL: 'https://lexdesk.firm.example/' }).publicUrl).toBe(
      'https://lexdesk.firm.example',
    )
  })

  it('reads TRUST_PROXY as false, true or a proxy list', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe(
      '127.0.0.1,10.0.0.0/8',
    )
  })

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', PUBLIC_URL: 'not a url' })).toThrow(
      /PORT[\s\S]*PUBLIC_URL/,
    )
  })

  it('requires a secret in production and a base URL and model for the openai engine', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/LEXDESK_SECRET is required/)
    expect(() => loadConfig({ AI_ENGINE: 'openai' })).toThrow(/AI_BASE_URL and AI_CHAT_MODEL/)
  })

  it('refuses to start in production without SMTP_URL unless MAIL_TRANSPORT=console is explicit', () => {
    const production = { NODE_ENV: 'production', LEXDESK_SECRET: 's'.repeat(32) }
    expect(() => loadConfig(production)).toThrow(/SMTP_URL[\s\S]*MAIL_TRANSPORT=console/)
    expect(loadConfig({ ...production, MAIL_TRANSPORT: 'console' }).mailTransport).toBe('console')
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.firm.example:587' })).toMatchObject({
      mailTransport: 'smtp',
      smtpUrl: 'smtp://mail.firm.example:587',
    })
    expect(loadConfig({}).mailTransport).toBe('console')
    expect(() => loadConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow(
      /MAIL_TRANSPORT=smtp needs SMTP_URL/,
    )
  })
})
