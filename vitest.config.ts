/** Vitest: `server` project (node, real PGlite) and `web` project (jsdom + Testing Library). */
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  test: {
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
