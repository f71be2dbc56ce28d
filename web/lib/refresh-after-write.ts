/**
 * Refreshing queries after a write. TanStack Query's `invalidateQueries` alone is not enough: a
 * query whose first load is still in flight is not fetched again but handed that load, whose
 * answer may predate the write (query.fetch cancels an in-flight fetch only once the query has
 * data; TanStack Query v5, query.ts). A row created while a page's first load was slow then never
 * appeared (the entities e2e journey on a loaded CI machine).
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * Cancels the fetches in flight under `queryKey`, then invalidates those queries, so every active
 * one is fetched again from a request sent after the write. Resolves when the refetches have
 * settled; never rejects for a failed refetch (the query keeps the error, as invalidateQueries).
 */
export async function refreshAfterWrite(queryClient: QueryClient, queryKey: QueryKey) {
  await queryClient.cancelQueries({ queryKey })
  await queryClient.invalidateQueries({ queryKey })
}
