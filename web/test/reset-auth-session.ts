/**
 * Test helper: better-auth keeps the session in a module-level store that stays mounted for a
 * second after the last subscriber leaves, so a test would see the previous test's session. This
 * marks it pending and refetches it through the (stubbed) fetch. Call after `stubFetch`.
 */
import { authClient } from '../lib/auth-client'

/** Forgets the cached session and reloads it from GET /api/auth/get-session. */
export function resetAuthSession(): void {
  const session = authClient.$store.atoms.session
  if (!session) throw new Error('better-auth client has no session atom')
  session.set({ ...session.get(), data: null, error: null, isPending: true, isRefetching: false })
  void session.get().refetch()
}
