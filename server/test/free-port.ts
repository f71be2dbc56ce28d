/**
 * A TCP port that is free on this machine right now: the kernel picks one for a throw-away
 * listener, which is closed before the port is returned. Lets tests that run a child server keep
 * one port across a restart without colliding with another checkout's test run.
 */
import { createServer } from 'node:net'

/** Resolves with a free port number (1024..65535); rejects if no listener can be opened. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => (port ? resolve(port) : reject(new Error('no port was assigned'))))
    })
  })
}
