/** Vitest setup for web tests: jest-dom matchers, and any console.error fails the test (epic-stack rule). */
import '@testing-library/jest-dom/vitest'
import { afterEach, beforeEach, vi } from 'vitest'
import { cleanup } from '@testing-library/react'

let consoleErrors: unknown[][] = []
beforeEach(() => {
  consoleErrors = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args)
  })
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  if (consoleErrors.length > 0) {
    throw new Error(
      `console.error was called: ${consoleErrors.map((a) => a.map(String).join(' ')).join('\n')}`,
    )
  }
})
