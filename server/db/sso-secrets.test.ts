/** Sealing of SSO providers' secrets at rest (sso-secrets.ts, decision 0152). */
import { describe, expect, it } from 'vitest'
import {
  isSealed,
  openConfig,
  openSecret,
  registerSsoSecretKey,
  sealConfig,
  sealSecret,
} from './sso-secrets'

describe('SSO secrets at rest', () => {
  it('seals only the secret fields of a configuration and opens them again', () => {
    registerSsoSecretKey('a'.repeat(40))
    const plain = JSON.stringify({ clientId: 'lexdesk', clientSecret: 'hush', pkce: true })
    const sealed = sealConfig(plain)
    expect(sealed).not.toContain('hush')
    const stored = JSON.parse(sealed) as Record<string, unknown>
    expect(stored).toMatchObject({ clientId: 'lexdesk', pkce: true })
    expect(isSealed(stored.clientSecret)).toBe(true)
    expect(JSON.parse(openConfig(sealed))).toEqual(JSON.parse(plain))
    // Sealing twice keeps the sealed value; text that is no JSON object passes unchanged.
    expect(sealConfig(sealed)).toBe(sealed)
    expect(sealConfig('not json')).toBe('not json')
  })

  it('gives a fresh ciphertext each time and refuses a tampered one', () => {
    registerSsoSecretKey('b'.repeat(40))
    const one = sealSecret('hush')
    expect(sealSecret('hush')).not.toBe(one)
    expect(openSecret(one)).toBe('hush')
    const raw = Buffer.from(one.split(':')[3] ?? '', 'base64')
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1
    const tampered = `${one.split(':').slice(0, 3).join(':')}:${raw.toString('base64')}`
    expect(() => openSecret(tampered)).toThrow()
  })

  it('opens values sealed under an earlier key of the process, and names an unknown key', () => {
    registerSsoSecretKey('c'.repeat(40))
    const earlier = sealSecret('old')
    registerSsoSecretKey('d'.repeat(40))
    expect(openSecret(earlier)).toBe('old')
    expect(() => openSecret('enc:v1:00000000:AAAA')).toThrow(/unknown key 00000000/)
  })
})
