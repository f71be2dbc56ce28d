import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import type { OrgScope } from '../../../lib/org-scope'
import { useLiveRefresh } from '../../../hooks/realtime'
import { documentListQuery, documentsKey } from '../api/documents-api'
import { useDebouncedValue } from '../../../lib/use-debounced-value'

/** Pause after the last keystroke before searching (spec: 300 ms, as for entities). */
const SEARCH_DEBOUNCE_MS = 300

/**
 * Library state: search text (sent after a 300 ms pause), type filter ('all' or a type), the
 * current page of cards of `scope` (one app, or the whole organisation), and a 'Failed to load
 * documents' toast whenever loading fails.
 */
export function useDocumentLibrary(scope: OrgScope) {
  const [search, setSearch] = useState('')
  const [type, setType] = useState('all')
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS)
  const query = useQuery(documentListQuery(scope.orgId, { q, type, appId: scope.appId }))
  // A colleague's upload (or deletion) shows without a reload.
  useLiveRefresh(scope.orgId, ['public.documents'], documentsKey(scope.orgId))

  useEffect(() => {
    if (query.error) {
      toast.error('Failed to load documents', {
        id: 'documents-load-failed',
        description: query.error.message,
      })
    }
  }, [query.error])

  return {
    search,
    setSearch,
    type,
    setType,
    documents: query.data?.items ?? [],
    total: query.data?.total ?? 0,
    types: query.data?.types ?? [],
    isFiltered: q.trim() !== '' || type !== 'all',
    status: query.status,
    isFetching: query.isFetching,
    retry: () => void query.refetch(),
  }
}
