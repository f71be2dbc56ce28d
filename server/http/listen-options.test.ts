/** The listen backlog takes a burst of connections that arrive while the event loop is busy. */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { Worker } from 'node:worker_threads'
import Fastify from 'fastify'
import { expect, it } from 'vitest'
import { listenOptions } from './listen-options'

/** Opens `burst` connections to `port` from another thread; sets flag[0] once all are connected. */
const CONNECTOR = `
const net = require('node:net')
const { workerData } = require('node:worker_threads')
const flag = new Int32Array(workerData.shared)
let connected = 0
for (let i = 0; i < workerData.burst; i += 1) {
  const socket = net.connect(workerData.port, '127.0.0.1')
  socket.on('error', () => {})
  socket.on('connect', () => {
    connected += 1
    if (connected === workerData.burst) {
      Atomics.store(flag, 0, 1)
      Atomics.notify(flag, 0)
    }
  })
}
`

it('lets a burst of 1,000 connections in while the event loop is busy, none left waiting for a SYN retry', async () => {
  // The kernel caps the backlog at net.core.somaxconn: a burst above it cannot be queued at all.
  const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'))
  const burst = Math.min(1000, somaxconn)
  const app = Fastify()
  await app.listen(listenOptions(0, '127.0.0.1'))
  const { port } = app.server.address() as AddressInfo
  const shared = new SharedArrayBuffer(4)
  const worker = new Worker(CONNECTOR, { eval: true, workerData: { port, burst, shared } })
  try {
    // This thread, the server's, is held here: it accepts nothing while the burst connects, so
    // every connection must fit the kernel's accept queue. One that does not is dropped and
    // retried until this thread accepts, which it does only after the wait: a timeout.
    const waited = Atomics.wait(new Int32Array(shared), 0, 0, 30_000)
    expect(waited).not.toBe('timed-out')
  } finally {
    await worker.terminate()
    await app.close()
  }
})
