/**
 * Playwright: Debian's chromium (never a downloaded browser) against the production build served
 * by the real server on a temporary data dir, started in e2e/global-setup.ts.
 */
import { defineConfig } from '@playwright/test'
import { E2E_BASE_URL } from './e2e/server'

/** Chromium's flags for every spec (specs that add flags, such as a fake microphone, extend these). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
})
