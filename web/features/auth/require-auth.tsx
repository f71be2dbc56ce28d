/** Guard for signed-in routes. */
import type { ReactNode } from 'react'
import { Navigate } from 'react-router'
import { authClient } from '../../lib/auth-client'
import { LoadingScreen } from '../../components/loading-screen'

/** Shows 'Loading...' until the session is known, then the children, or redirects to /auth. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: session, isPending } = authClient.useSession()
  if (isPending) return <LoadingScreen />
  if (!session?.user) return <Navigate to="/auth" replace />
  return <>{children}</>
}
