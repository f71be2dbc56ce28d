/** Mutation creating an app (POST /api/v1/orgs/{orgId}/apps) in the current organisation. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { api, unwrap } from '../../lib/api'
import { appsQuery } from './api'
import { useCurrentOrg } from './current-org'
import { refreshAfterWrite } from '../../lib/refresh-after-write'

/** `mutate(slug)` creates the app in the current org, reloads the app list and selects the new app. */
export function useCreateApp(options: { onCreated?: () => void } = {}) {
  const { orgId, setAppId } = useCurrentOrg()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (slug: string) => {
      if (orgId === null) throw new Error('Select an organization first')
      const app = await api
        .POST('/api/v1/orgs/{orgId}/apps', { params: { path: { orgId } }, body: { slug } })
        .then(unwrap)
      return { app, orgId }
    },
    onSuccess: async ({ app, orgId: createdIn }) => {
      await refreshAfterWrite(queryClient, appsQuery(createdIn).queryKey)
      setAppId(app.id)
      toast.success(`App '${app.slug}' created`)
      options.onCreated?.()
    },
    onError: (error) => {
      toast.error(error.message)
    },
  })
}
