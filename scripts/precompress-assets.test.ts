import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressFiles } from './precompress-assets'
import { buildTestApp, type TestApp } from '../server/test/test-app'

// The web app's files are sent compressed (Lighthouse's "Enable text compression", issue 30):
// the build writes .br and .gz copies (scripts/precompress-assets.ts) and the server picks the one
// the browser accepts, for the hashed assets and for the history fallback's index.html alike.
const SCRIPT = `export const clauses = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `clause ${i}`))}\n`
const PAGE = `<!doctype html><html lang="en"><head><title>Lexdesk</title></head><body>${'<p>x</p>'.repeat(300)}</body></html>`

let webRoot: string
let t: TestApp

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-web-'))
  await mkdir(path.join(webRoot, 'assets'))
  await writeFile(path.join(webRoot, 'index.html'), PAGE)
  await writeFile(path.join(webRoot, 'assets/app.js'), SCRIPT)
  await writeFile(path.join(webRoot, 'assets/tiny.js'), 'export {}\n')
  await precompressFiles(webRoot, ['index.html', 'assets/app.js', 'assets/tiny.js'])
  t = await buildTestApp({ webRoot })
})
afterAll(async () => {
  await t.close()
  await rm(webRoot, { recursive: true, force: true })
})

describe('the built web app', () => {
  it('sends a script as Brotli to a browser that accepts it, and gzip to one that only takes gzip', async () => {
    const br = await t.app.inject({
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT)

    const gz = await t.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT)
  })

  it('sends the plain file to a client that accepts no encoding, and small files plain', async () => {
    const plain = await t.app.inject({ url: '/assets/app.js' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(SCRIPT)
    const tiny = await t.app.inject({
      url: '/assets/tiny.js',
      headers: { 'accept-encoding': 'br' },
    })
    expect(tiny.headers['content-encoding']).toBeUndefined()
    expect(tiny.body).toBe('export {}\n')
  })

  it('compresses the page a client route falls back to', async () => {
    const res = await t.app.inject({
      url: '/dashboard/some-firm/documents',
      headers: { 'accept-encoding': 'br' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(PAGE)
  })
})
