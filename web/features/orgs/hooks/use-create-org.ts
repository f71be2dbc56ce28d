/** Mutation creating an organisation through better-auth and opening it. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'
import { orgsQuery } from '../api/orgs'
import { slugify } from './slugify'
import { useOpenScope } from './use-open-scope'

/**
 * `mutate(name)` creates the org (slug derived from the name), reloads the list and opens the
 * current screen in the new organisation (its URL).
 */
export function useCreateOrg(options: { onCreated?: (orgId: string) => void } = {}) {
  const queryClient = useQueryClient()
  const openScope = useOpenScope()
  return useMutation({
    mutationFn: async (name: string) => {
      const { data, error } = await authClient.organization.create({
        name,
        // The server adds a random suffix (slugs are unique across every tenant, and a taken one
        // must not be told apart from a free one): 'Acme Law' → 'acme-law-k3v9x0qa'.
        slug: slugify(name),
      })
      if (error)
        throw new Error(error.message ?? error.statusText ?? 'Could not create organization')
      return data
    },
    onSuccess: async (org) => {
      await refreshAfterWrite(queryClient, orgsQuery().queryKey)
      void openScope({ orgSlug: org.slug })
      toast.success('Organization created')
      options.onCreated?.(org.id)
    },
    onError: (error) => {
      toast.error(error.message)
    },
  })
}
