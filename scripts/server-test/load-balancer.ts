/**
 * Debian's haproxy on loopback in front of Lexdesk instances, for `npm run test:server` and the
 * server bench, with compose.yaml's own configuration (deploy/haproxy.cfg: round robin, /readyz
 * checks, X-Forwarded-For, which the instances trust from 127.0.0.1, long tunnels, a failed
 * connection retried on the other instance, flood control per address) but for its address and
 * instances (haproxyConfigFor).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import os from 'node:os'
import path from 'node:path'

export interface LoadBalancer {
  origin: string
  stop(): Promise<void>
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

/** compose.yaml's load balancer configuration (its text). */
export const DEPLOYED_HAPROXY_CFG = new URL('../../deploy/haproxy.cfg', import.meta.url)

/**
 * `deployed` (deploy/haproxy.cfg's text) listening on 127.0.0.1:`port` in front of the instances
 * on 127.0.0.1:`backends`, in place of its bind and server lines. Throws when it has no single
 * bind line or no server line (the file changed shape).
 */
export function haproxyConfigFor(deployed: string, port: number, backends: number[]): string {
  const lines = deployed.split('\n')
  const binds = lines.filter((line) => /^\s*bind\s/.test(line))
  const servers = lines.filter((line) => /^\s*server\s/.test(line))
  if (binds.length !== 1 || servers.length === 0)
    throw new Error('deploy/haproxy.cfg: expected one bind line and server lines')
  const lastServer = lines.lastIndexOf(servers.at(-1)!)
  return lines
    .flatMap((line, i) => {
      if (binds.includes(line)) return [`  bind 127.0.0.1:${port}`]
      if (i === lastServer)
        return backends.map(
          (p, n) => `  server lexdesk${n + 1} 127.0.0.1:${p} check inter 1s fall 2`,
        )
      return servers.includes(line) ? [] : [line]
    })
    .join('\n')
}

/** Starts haproxy listening on `port` and resolves once it accepts connections. */
export async function startLoadBalancer(port: number, backends: number[]): Promise<LoadBalancer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-haproxy-'))
  const config = path.join(dir, 'haproxy.cfg')
  writeFileSync(
    config,
    haproxyConfigFor(readFileSync(DEPLOYED_HAPROXY_CFG, 'utf8'), port, backends),
  )
  const binary = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy'
  const child = spawn(binary, ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  for (let i = 0; !(await accepts(port)); i++) {
    if (i > 100 || child.exitCode !== null) throw new Error(`haproxy did not start: ${errors}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
