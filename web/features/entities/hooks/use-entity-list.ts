/**
 * The state of the entities table and its query: the one entity a link names (`?entity=<id>`,
 * the audit log's link; the table then holds it alone until "Show all"), search (reloading 300 ms after the last
 * keystroke), exact type, sort list, page and page size, and the row selection, which every
 * reload clears (spec section 4). Page and selection are kept with the key they belong to, so a
 * new filter starts at page 1 and a reload starts with no selection, without effects.
 */
import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useDebouncedValue } from '../../../lib/use-debounced-value'
import type { OrgScope } from '../../../lib/org-scope'
import { useLinkedId } from '../../../lib/use-linked-id'
import { useLiveRefresh } from '../../../hooks/realtime'
import { entitiesKey, entityListQuery } from '../api/entities-api'
import { clampPage, DEFAULT_PAGE_SIZE, lastPageOf } from '../paging'
import { sortParam, toggleSort, type SortTerm } from '../sort-spec'

/** The pause after the last keystroke before a search reloads (spec section 9). */
export const SEARCH_DEBOUNCE_MS = 300

export function useEntityList(scope: OrgScope) {
  const [linkedId, setLinkedId] = useLinkedId('entity')
  const [search, setSearch] = useState('')
  const [type, setType] = useState('')
  const [sort, setSort] = useState<SortTerm[]>([])
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE)
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS)
  // The page belongs to a search, type filter and page size: changing one starts at page 1.
  const filterKey = JSON.stringify([linkedId, q, type, pageSize])
  const [pageState, setPageState] = useState({ key: filterKey, page: 1 })
  const [knownLastPage, setKnownLastPage] = useState(1)
  const requested = pageState.key === filterKey ? pageState.page : 1
  // Fewer rows than before (a delete elsewhere): stay within the last known page.
  const page = clampPage(requested, knownLastPage)
  const params = useMemo(
    () => ({ id: linkedId, q, type, appId: scope.appId, sort: sortParam(sort), page, pageSize }),
    [linkedId, q, type, scope.appId, sort, page, pageSize],
  )
  const query = useQuery(entityListQuery(scope.orgId, params))
  // A colleague's new, edited or deleted entity shows without a reload.
  useLiveRefresh(scope.orgId, ['public.entities'], entitiesKey(scope.orgId))
  const total = query.data?.total
  const lastPage = total === undefined ? knownLastPage : lastPageOf(total, pageSize)
  if (total !== undefined && lastPage !== knownLastPage) setKnownLastPage(lastPage)

  // The selection belongs to one load of one page: any reload (filters, sort, page, a write)
  // clears it.
  const loadKey = JSON.stringify([params, query.dataUpdatedAt])
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: loadKey,
    ids: new Set(),
  })
  const selected = selection.key === loadKey ? selection.ids : new Set<string>()

  return {
    query,
    params,
    linkedId,
    showAll: () => setLinkedId(null),
    search,
    setSearch,
    type,
    setType,
    sort,
    toggleSort: (key: string) => setSort((s) => toggleSort(s, key)),
    page,
    lastPage,
    setPage: (n: number) => setPageState({ key: filterKey, page: clampPage(n, lastPage) }),
    pageSize,
    setPageSize,
    selected,
    setSelected: (ids: ReadonlySet<string>) => setSelection({ key: loadKey, ids }),
  }
}

export type EntityList = ReturnType<typeof useEntityList>
