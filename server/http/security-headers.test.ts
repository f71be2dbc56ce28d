import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/test-app'
import { helmetOptions } from './security-headers'

/** The headers helmet's middleware sets with helmetOptions, as a flat name, value list. */
function helmetHeaderList(publicUrl: string): string[] {
  const headers = new Map<string, string>()
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  }
  helmet(helmetOptions(publicUrl))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => {},
  )
  return [...headers].flat()
}

/** One app per PUBLIC_URL, shared by the tests that only read its headers (stateless GETs). */
const apps = new Map<string, Promise<TestApp>>()
function appFor(publicUrl: string): Promise<TestApp> {
  let app = apps.get(publicUrl)
  if (!app) {
    app = buildTestApp({ publicUrl })
    apps.set(publicUrl, app)
  }
  return app
}
afterAll(async () => {
  for (const app of apps.values()) await (await app).close()
})

async function headersOfRoot(publicUrl: string) {
  const t = await appFor(publicUrl)
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

describe("helmet's headers on every answer", () => {
  it('sets each header helmet sets, with its value, on an API answer', async () => {
    const publicUrl = 'https://lexdesk.firm.example'
    const t = await appFor(publicUrl)
    const res = await t.app.inject({ url: '/api/v1/orgs/none/documents' })
    expect(res.statusCode).toBe(401)
    const list = helmetHeaderList(publicUrl)
    expect(list.length).toBeGreaterThan(20)
    for (let i = 0; i < list.length; i += 2) expect(res.headers[list[i]!]).toBe(list[i + 1])
    expect(res.headers['x-powered-by']).toBeUndefined()
  })
})

describe('the API docs (swagger-ui) follow the same CSP rule as the app', () => {
  async function docsCsp(publicUrl: string) {
    const t = await appFor(publicUrl)
    const page = await t.app.inject({ url: '/api/docs' })
    expect(page.statusCode).toBe(200)
    return String(page.headers['content-security-policy'])
  }

  it('sends no upgrade-insecure-requests on a plain http host', async () => {
    const csp = await docsCsp('http://lexdesk.internal:3302')
    expect(csp).toContain("default-src 'self'")
    expect(csp).not.toContain('upgrade-insecure-requests')
  })

  it('keeps upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    expect(await docsCsp('https://lexdesk.firm.example')).toContain('upgrade-insecure-requests')
  })
})
