import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from './build-server.mjs'
import { startChildServer, type ChildServer } from '../server/test/child-server'
import { freePort } from '../server/test/free-port'
import { signedInHttpMember } from '../server/test/http-member'
import { seededDataDir } from '../server/test/seeded-data-dir'
import { makePdf, SAMPLE_CONTRACT, uploadForm } from '../server/test/sample-files'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

let buildDir: string
let dataDir: string
let server: ChildServer | undefined

beforeAll(async () => {
  // Inside the repository (tmp/ is ignored): the built server finds package.json and node_modules
  // above it, as dist/server does.
  await mkdir(path.join(ROOT, 'tmp'), { recursive: true })
  buildDir = await mkdtemp(path.join(ROOT, 'tmp', 'built-server-'))
  dataDir = await seededDataDir('lexdesk-built-')
}, 120_000)
afterAll(async () => {
  await server?.stop('SIGKILL')
  if (buildDir) await rm(buildDir, { recursive: true, force: true })
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('production from built JavaScript (decision 0118)', () => {
  it('the built server starts with plain node, answers /readyz and reads an upload on its worker threads', async () => {
    const out = path.join(buildDir, 'server')
    expect(await buildServer(out)).toBeGreaterThan(100)
    // No tsx: were a module still TypeScript (a worker's task, a `.ts` URL), it could not load.
    server = await startChildServer({
      dataDir,
      port: await freePort(),
      entry: path.join(out, 'main.js'),
      env: { NODE_OPTIONS: '' },
    })
    const ready = await fetch(`${server.origin}/readyz`)
    expect(ready.status).toBe(200)
    expect(server.output()).not.toMatch(/tsx/)

    // Text extraction runs on the WorkerPool: pool-worker.cjs → .mjs → run-pool-task.js →
    // extract-task.js, each a built file.
    const member = await signedInHttpMember(server)
    const uploaded = await fetch(`${server.origin}/api/v1/orgs/${member.orgId}/documents`, {
      method: 'POST',
      headers: member.headers,
      body: uploadForm(await makePdf(SAMPLE_CONTRACT), 'msa.pdf'),
    })
    expect(uploaded.status, await uploaded.clone().text()).toBe(201)
    expect(((await uploaded.json()) as { textStatus: string }).textStatus).toBe('ok')
  }, 240_000)
})
