import { readdir, readFile } from 'node:fs/promises'
import os from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { WorkerPool } from '../../workers/worker-pool'
import { PROGRAM_NICENESS, runProcess } from './run-process'

const pool = new WorkerPool({ threads: 1 })
afterAll(() => pool.close())

/** Nice values of this process's children named `name`, read from /proc (Linux). */
async function childNiceness(name: string): Promise<number[]> {
  const found: number[] = []
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    const open = stat.indexOf('(')
    const close = stat.lastIndexOf(')')
    // After the name: state, parent pid, … and the nice value, the 19th field of the line.
    const fields = stat.slice(close + 2).split(' ')
    if (stat.slice(open + 1, close) !== name || Number(fields[1]) !== process.pid) continue
    found.push(Number(fields[16]))
  }
  return found
}

describe('runProcess on a pool slot', () => {
  it.each([
    ['alone', {}],
    ['under its address-space cap (prlimit)', { memoryMb: 256 }],
  ])(
    "runs background work %s at a lower CPU priority than the server's threads",
    async (_how, limits) => {
      const stop = new AbortController()
      const running = runProcess('sleep', ['60'], {
        install: 'coreutils',
        pool,
        signal: stop.signal,
        background: true,
        ...limits,
      }).catch((error: unknown) => error)
      const nicer = Math.min(19, os.getPriority() + PROGRAM_NICENESS)
      await expect.poll(() => childNiceness('sleep'), { timeout: 20_000 }).toEqual([nicer])
      expect(nicer).toBeGreaterThan(os.getPriority())
      stop.abort(new Error('done'))
      await expect(running).resolves.toMatchObject({ message: 'done' })
    },
  )

  it("runs a program a request waits for at the server's own priority", async () => {
    const stop = new AbortController()
    const running = runProcess('sleep', ['60'], {
      install: 'coreutils',
      pool,
      signal: stop.signal,
    }).catch((error: unknown) => error)
    await expect.poll(() => childNiceness('sleep'), { timeout: 20_000 }).toEqual([os.getPriority()])
    stop.abort(new Error('done'))
    await expect(running).resolves.toMatchObject({ message: 'done' })
  })
})
