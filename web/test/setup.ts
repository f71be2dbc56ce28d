/**
 * Vitest setup for web tests: jest-dom matchers; any console.error fails the test (epic-stack
 * rule); and every piece of browser-global state a test can leave behind (DOM, mocks, stubbed
 * globals, localStorage, sonner's toast store) is reset, so tests do not depend on their order.
 * WebSocket is a fake (fake-web-socket.ts): no test connects anywhere.
 */
import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { cleanStores, onMount, STORE_UNMOUNT_DELAY, type Store } from 'nanostores'
import { toast } from 'sonner'
import { authClient } from '../lib/auth-client'
import { FakeWebSocket } from './fake-web-socket'

// findBy*/waitFor give up after this long. A ceiling for a hung screen, not a speed target: on a
// loaded shared machine a screen that loads its organisation, apps and library can pass 1 s.
configure({ asyncUtilTimeout: 5_000 })

let consoleErrors: unknown[][] = []
beforeEach(() => {
  FakeWebSocket.install()
  consoleErrors = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args)
  })
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
  localStorage.clear()
  // sonner keeps toasts in a module-level store and replays active ones to a new Toaster.
  toast.dismiss()
  if (consoleErrors.length > 0) {
    throw new Error(
      `console.error was called: ${consoleErrors.map((a) => a.map(String).join(' ')).join('\n')}`,
    )
  }
})

// better-auth's session atoms (nanostores) unmount 1 s after their last listener leaves; if that
// timer fires after jsdom is torn down, its cleanup throws (window's listeners are gone). Unmount
// them now, and in a file that mounted them, outwait any unmount timer still pending (a late
// refetch can mount the session again after the clean-up) while jsdom is still alive, then
// unmount them once more: a timer set during that wait (a refetch mounting and leaving again)
// finds its atom already inactive and does nothing.
let sessionMounted = false
const atoms = Object.values(authClient.$store.atoms) as Store[]
for (const atom of atoms) onMount(atom, () => void (sessionMounted = true))
afterAll(async () => {
  cleanStores(...atoms)
  if (!sessionMounted) return
  await new Promise((resolve) => setTimeout(resolve, STORE_UNMOUNT_DELAY + 100))
  cleanStores(...atoms)
})
