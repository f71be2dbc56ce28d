/** Mutation creating an app (POST /api/v1/orgs/{orgId}/apps) in the URL's organisation. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { api, unwrap } from '../../../lib/api'
import { useOrgScopeIfAny } from '../../../lib/org-scope'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'
import { appsQuery } from '../api/orgs'
import { useOpenScope } from './use-open-scope'

/** `mutate(slug)` creates the app in the current org, reloads the app list and opens the new app. */
export function useCreateApp(options: { onCreated?: () => void } = {}) {
  const scope = useOrgScopeIfAny()
  const queryClient = useQueryClient()
  const openScope = useOpenScope()
  return useMutation({
    mutationFn: async (slug: string) => {
      if (scope === null) throw new Error('Select an organization first')
      const { orgId, orgSlug } = scope
      const app = await api
        .POST('/api/v1/orgs/{orgId}/apps', { params: { path: { orgId } }, body: { slug } })
        .then(unwrap)
      return { app, orgId, orgSlug }
    },
    onSuccess: async ({ app, orgId, orgSlug }) => {
      await refreshAfterWrite(queryClient, appsQuery(orgId).queryKey)
      void openScope({ orgSlug, appSlug: app.slug })
      toast.success(`App '${app.slug}' created`)
      options.onCreated?.()
    },
    onError: (error) => {
      toast.error(error.message)
    },
  })
}
