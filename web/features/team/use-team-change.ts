/** A mutation for one team change: a toast on success or failure, and the team read again. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'

/**
 * Runs `change(input)`; on success toasts `done(input)` and refetches `['orgs', orgId, 'team']`;
 * on failure toasts the server's words.
 */
export function useTeamChange<Input>(
  orgId: string,
  change: (input: Input) => Promise<unknown>,
  done: (input: Input) => string,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: change,
    onSuccess: async (_data, input) => {
      toast.success(done(input))
      await queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'team'] })
    },
    onError: (error) => toast.error(error.message),
  })
}
