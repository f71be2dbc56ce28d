/** Signs the user out, forgets their cached data and goes to the landing page. */
import { useCallback, useState } from 'react'
import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../lib/auth-client'

/** Returns `{ signOut, isPending }`; on success toasts 'Signed out successfully' and navigates to /. */
export function useSignOut() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [isPending, setIsPending] = useState(false)
  const signOut = useCallback(async () => {
    setIsPending(true)
    // Leave the protected area first: once the session is gone its guard would send us to /auth.
    await navigate('/', { replace: true })
    try {
      const { error } = await authClient.signOut()
      if (error) throw new Error(error.message || error.statusText || 'Could not sign out')
      queryClient.clear() // the next user of this browser must not see this user's cache
      toast.success('Signed out successfully')
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error))
    } finally {
      setIsPending(false)
    }
  }, [navigate, queryClient])
  return { signOut, isPending }
}
