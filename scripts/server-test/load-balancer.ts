/**
 * Debian's haproxy on loopback in front of Lexdesk instances, for `npm run test:server`: round
 * robin over `backends`, each checked on /readyz, with X-Forwarded-For added (the instances
 * trust 127.0.0.1 as their proxy), long tunnel timeouts for WebSockets and event streams, and a
 * failed connection retried on the other instance (compose.yaml's haproxy.cfg says the same).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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

/** Starts haproxy listening on `port` and resolves once it accepts connections. */
export async function startLoadBalancer(port: number, backends: number[]): Promise<LoadBalancer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-haproxy-'))
  const config = path.join(dir, 'haproxy.cfg')
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  option forwardfor',
      '  timeout connect 5s',
      '  timeout client 120s',
      '  timeout server 120s',
      '  timeout tunnel 1h',
      // A connection refused by a stopping instance is tried again on the other one.
      '  retries 3',
      '  option redispatch 1',
      '  retry-on conn-failure',
      'frontend lexdesk',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      ...backends.map((p, i) => `  server lexdesk${i + 1} 127.0.0.1:${p} check inter 1s fall 2`),
      '',
    ].join('\n'),
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
