import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/test-app'

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

async function headersOfRoot(publicUrl: string) {
  t = await buildTestApp({ publicUrl })
  const res = await t.app.inject({ url: '/' })
  return {
    csp: String(res.headers['content-security-policy']),
    hsts: res.headers['strict-transport-security'],
  }
}

describe('transport security headers follow PUBLIC_URL', () => {
  it('sends neither upgrade-insecure-requests nor HSTS when PUBLIC_URL is plain http on a LAN host', async () => {
    const { csp, hsts } = await headersOfRoot('http://lexdesk.internal:3302')
    expect(csp).toContain("default-src 'self'")
    expect(csp).not.toContain('upgrade-insecure-requests')
    expect(hsts).toBeUndefined()
  })

  it('sends both when PUBLIC_URL is https', async () => {
    const { csp, hsts } = await headersOfRoot('https://lexdesk.firm.example')
    expect(csp).toContain('upgrade-insecure-requests')
    expect(hsts).toMatch(/max-age=\d+/)
  })
})
