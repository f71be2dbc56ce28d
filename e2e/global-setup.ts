/**
 * Starts the real server as production runs it (the server built to dist/server by
 * scripts/build-server.mjs, run by plain node with source maps; built afresh here, ~4 s, so a
 * run never tests a stale build) on a fresh temporary data dir, serving the production build in
 * dist/web, with its output in E2E_LOG; waits for /readyz and returns the teardown that stops it
 * and removes the data dir.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  E2E_BASE_URL,
  E2E_IDP_CLIENT,
  E2E_IDP_ISSUER,
  E2E_IDP_PORT,
  E2E_LOG,
  E2E_PORT,
  E2E_SSO_DOMAIN,
} from './server'
import { startOidcIdp } from '../server/test/oidc-idp'

export default async function globalSetup() {
  if (!existsSync('dist/web/index.html'))
    throw new Error('Run `npx vite build` before the e2e tests.')
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' })
  // The identity provider single sign-on signs in through (sso.spec.ts), on this machine only.
  const idp = await startOidcIdp(
    [{ ...E2E_IDP_CLIENT, redirectUris: [`${E2E_BASE_URL}/api/auth/sso/callback/none`] }],
    {
      port: E2E_IDP_PORT,
      redirectsUnder: `${E2E_BASE_URL}/api/auth/sso/callback/`,
      emailsAt: E2E_SSO_DOMAIN,
    },
  )
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-e2e-data-'))
  const log = createWriteStream(E2E_LOG)
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(E2E_PORT),
      LEXDESK_DATA_DIR: dataDir,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      NODE_ENV: 'test',
      // One running job per organisation: a firm's second job waits behind its first, so a spec
      // can see a job queued for as long as the first one runs (background-analysis.spec.ts).
      JOBS_PER_ORG: '1',
      // Every spec signs people in from this one machine: the per-client sign-in limit (30 per
      // 15 minutes, for a real client) would refuse the later specs' links.
      SIGN_IN_REQUESTS_PER_CLIENT: '1000',
      SSO_IDP_ORIGINS: E2E_IDP_ISSUER,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  server.stdout.pipe(log)
  server.stderr.pipe(log)
  // A ceiling for a server that hangs, not a speed target: with the machine's two cores shared by
  // other runs (load average ~25), a new PGlite data dir took 70 s to be ready.
  const deadline = Date.now() + 180_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited early; see ${E2E_LOG}`)
    try {
      if ((await fetch(`${E2E_BASE_URL}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not become ready; see ${E2E_LOG}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return async () => {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    await rm(dataDir, { recursive: true, force: true })
    await idp.close()
  }
}
