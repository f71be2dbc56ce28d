import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../server/test/free-port'
import { DEPLOYED_HAPROXY_CFG, haproxyConfigFor, startLoadBalancer } from './load-balancer'

const HAPROXY = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : undefined
const deployed = readFileSync(DEPLOYED_HAPROXY_CFG, 'utf8')

describe("the load balancer's configuration (deploy/haproxy.cfg)", () => {
  it("runs compose.yaml's file in the server tests, flood control included, with their address and instances", () => {
    const config = haproxyConfigFor(deployed, 4100, [4101, 4102, 4103])
    expect(config).toContain('  bind 127.0.0.1:4100\n')
    expect(config.match(/^\s*server .*$/gm)).toEqual([
      '  server lexdesk1 127.0.0.1:4101 check inter 1s fall 2',
      '  server lexdesk2 127.0.0.1:4102 check inter 1s fall 2',
      '  server lexdesk3 127.0.0.1:4103 check inter 1s fall 2',
    ])
    expect(config).not.toContain(':8080')
    expect(config).toMatch(/^\s*tcp-request connection track-sc0 src$/m)
    expect(config).toMatch(/http-request return status 429 .* if flood$/m)
  })

  it.skipIf(!HAPROXY)(
    'is a configuration haproxy accepts, as deployed and as the tests run it',
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-haproxy-check-'))
      try {
        const file = path.join(dir, 'haproxy.cfg')
        writeFileSync(file, haproxyConfigFor(deployed, 4100, [4101, 4102]))
        for (const config of [file, DEPLOYED_HAPROXY_CFG.pathname])
          expect(() =>
            execFileSync(HAPROXY!, ['-c', '-q', '-f', config], { stdio: 'pipe' }),
          ).not.toThrow()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )

  it.skipIf(!HAPROXY)(
    'passes a client below the flood rule through, with its address forwarded',
    async () => {
      const seen: string[] = []
      const instance = http.createServer((req, res) => {
        seen.push(String(req.headers['x-forwarded-for']))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
      })
      const instancePort = await freePort()
      await new Promise<void>((resolve) => instance.listen(instancePort, '127.0.0.1', resolve))
      const lb = await startLoadBalancer(await freePort(), [instancePort])
      try {
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => fetch(`${lb.origin}/api/v1/x`).then((r) => r.status)),
        )
        expect(new Set(answers)).toEqual(new Set([200]))
        expect(seen.filter((address) => address === '127.0.0.1').length).toBeGreaterThanOrEqual(50)
      } finally {
        await lb.stop()
        await new Promise((resolve) => instance.close(resolve))
      }
    },
  )
})
