/** Vitest: `server` project (node, real PGlite) and `web` project (jsdom + Testing Library). */
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  test: {
    // One test file per core at a time. Vitest's default is the cores less one: one file at a
    // time on the 2-core CI machine, which then idles while a file waits on its database thread,
    // a child process or a timer (decision 0097).
    maxWorkers: '100%',
    // expect.poll's ceiling (Vitest's default is 1 s): a poll ends as soon as its condition
    // holds, so a longer ceiling costs a green run nothing, and with a file on each core a worker
    // thread or child can take more than 1 s to start on a loaded machine (decision 0097).
    expect: { poll: { timeout: 10_000 } },
    // Tests within a file run in an order other than the source's (fixed by the seed, so a run
    // can be repeated), so a test that leans on another's data fails here (issue 10). Try other
    // orders with `npx vitest run --sequence.seed=N`.
    sequence: { shuffle: { files: false, tests: true }, seed: 20261124 },
    // better-auth's session atom unmounts 1 s after its last listener leaves and then removes its
    // storage listener from the window it captured; when that timer outlives a web test file,
    // jsdom's window is already closed and the call throws. web/test/setup.ts outwaits the timer,
    // but a refetch can still set a new one at teardown. Only that one error of that one
    // function is ignored; every other unhandled error still fails the run.
    onUnhandledError: (error) =>
      !(
        error.name === 'TypeError' &&
        error.message === 'target.removeEventListener is not a function' &&
        /better-auth[\\/]dist[\\/]client[\\/]broadcast-channel/.test(error.stack ?? '')
      ),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
          // A ceiling for a hung test, not a speed target: on a loaded shared machine a component
          // test clicking through a screen can pass 5 s (the default) with nothing wrong.
          testTimeout: 20_000,
        },
      },
    ],
  },
})
