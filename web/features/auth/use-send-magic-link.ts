/** Mutation that asks the server to e-mail a one-time sign-in link. */
import { useMutation } from '@tanstack/react-query'
import { authClient, authErrorMessage } from '../../lib/auth-client'

/**
 * `mutateAsync(email)` resolves when the link is sent; rejects with the server's message. The link
 * leads to `callbackURL` (a path of this app) once followed.
 */
export function useSendMagicLink(callbackURL = '/dashboard') {
  return useMutation({
    mutationFn: async (email: string) => {
      const { error } = await authClient.signIn.magicLink({ email, callbackURL })
      if (error) throw new Error(authErrorMessage(error) || 'Could not send the link')
    },
  })
}
