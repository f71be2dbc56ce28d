/** Mutation creating an organisation through better-auth and making it current. */
import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../lib/auth-client'
import { useCurrentOrg } from './current-org'
import { slugify } from './slugify'

/** `mutate(name)` creates the org (slug derived from the name), refetches the list and selects it. */
export function useCreateOrg(options: { onCreated?: (orgId: string) => void } = {}) {
  const { refetchOrgs, setOrgId } = useCurrentOrg()
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
      await refetchOrgs()
      setOrgId(org.id)
      toast.success('Organization created')
      options.onCreated?.(org.id)
    },
    onError: (error) => {
      toast.error(error.message)
    },
  })
}
