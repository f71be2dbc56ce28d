/** Mutation that asks the server to e-mail a one-time sign-in link. */
import { useMutation } from '@tanstack/react-query'
import { authClient, authErrorMessage } from '../../lib/auth-client'

/**
 * `mutateAsync(email)` resolves when the link is sent; rejects with the server's message. The link
 * leads to `callbackURL` (a path of this app) once followed; a used or expired link leads to
 * `errorCallbackURL` with `?error=INVALID_TOKEN` (or `EXPIRED_TOKEN`), where the form says so.
 */
export function useSendMagicLink(callbackURL = '/dashboard', errorCallbackURL?: string) {
  return useMutation({
    mutationFn: async (email: string) => {
      const { error } = await authClient.signIn.magicLink({
        email,
        callbackURL,
        ...(errorCallbackURL !== undefined && { errorCallbackURL }),
      })
      if (error) throw new Error(authErrorMessage(error) || 'Could not send the link')
    },
  })
}
