/**
 * Issue 29: an entities import interrupted by a crash (the real server killed with SIGKILL while
 * it imports) is retried from its stored file at the next start, and the retry first sweeps what
 * the killed attempt had written, so the organisation ends with every row exactly once.
 */
import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startChildServer, type ChildServer } from '../../test/child-server'
import { seededDataDir } from '../../test/seeded-data-dir'
import { freePort } from '../../test/free-port'
import { signedInHttpMember } from '../../test/http-member'
import { uploadForm } from '../../test/sample-files'

const ROWS = 40_000

let dataDir: string
let server: ChildServer | undefined

beforeAll(async () => {
  dataDir = await seededDataDir('lexdesk-import-crash-')
})
afterAll(async () => {
  await server?.stop('SIGKILL')
  await rm(dataDir, { recursive: true, force: true })
})

interface JobView {
  status: string
  message: string | null
  result: { imported: number } | null
  error: string | null
}

describe('a server killed during an entities import', () => {
  it('retries the import from its stored file after a restart and keeps every row exactly once', async () => {
    const port = await freePort()
    server = await startChildServer({ dataDir, port, readyTimeoutMs: 180_000 })
    const member = await signedInHttpMember(server, 'Import Crash Firm')
    const rows = Array.from({ length: ROWS }, (_, i) => `"Client ${i}",client,"{""n"":${i}}"`)
    const csv = new TextEncoder().encode(`name,type,data\n${rows.join('\n')}\n`)
    const api = () => `${server!.origin}/api/v1/orgs/${member.orgId}`
    const started = await fetch(`${api()}/entities/import`, {
      method: 'POST',
      headers: member.headers,
      body: uploadForm(csv, 'clients.csv'),
    })
    expect(started.status, await started.clone().text()).toBe(202)
    const { id } = (await started.json()) as { id: string }
    const job = async () =>
      (await (await fetch(`${api()}/jobs/${id}`, { headers: member.headers })).json()) as JobView

    // Killed once the import has written some rows (its progress says so), not before.
    await expect
      .poll(async () => (await job()).message ?? '', { timeout: 60_000, interval: 50 })
      .toMatch(/Imported [1-9]|\d+ of|ended/)
    const seen = await job()
    expect(seen.status, 'the import ended before the kill, so no crash was exercised').toBe(
      'running',
    )
    await server.stop('SIGKILL')

    server = await startChildServer({ dataDir, port, readyTimeoutMs: 180_000 })
    await expect
      .poll(async () => (await job()).status, { timeout: 120_000, interval: 250 })
      .toMatch(/succeeded|failed|cancelled/)
    expect(await job()).toMatchObject({ status: 'succeeded', result: { imported: ROWS } })
    const page = await fetch(`${api()}/entities?limit=1`, { headers: member.headers })
    expect(((await page.json()) as { total: number }).total).toBe(ROWS)
    const search = await fetch(`${api()}/entities?q=Client&limit=1`, { headers: member.headers })
    expect(((await search.json()) as { total: number }).total).toBe(ROWS)
    const imports = path.join(dataDir, 'blobs', 'orgs', member.orgId, 'imports')
    expect(await readdir(imports).catch(() => [])).toEqual([])
  }, 300_000)
})
