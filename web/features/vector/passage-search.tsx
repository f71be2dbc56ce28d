import { useMutation } from '@tanstack/react-query'
import { Search } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import type { OrgScope } from '../../lib/org-scope'
import { searchPassages } from './api'

interface PassageSearchProps {
  scope: OrgScope
  /** Opens the passage's document with the passage highlighted. */
  onOpenPassage: (documentId: string, span: { start: number; end: number }) => void
}

/** The library's "by meaning" mode: passages of the org's documents closest to a question. */
export function PassageSearch({ scope, onOpenPassage }: PassageSearchProps) {
  const [query, setQuery] = useState('')
  const search = useMutation({
    mutationFn: (q: string) =>
      searchPassages(scope.orgId, { query: q, k: 8, appId: scope.appId ?? undefined }),
  })
  return (
    <section aria-label="Search by meaning" className="flex flex-col gap-3">
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault()
          if (query.trim()) search.mutate(query.trim())
        }}
      >
        <Input
          type="search"
          aria-label="Search by meaning"
          placeholder="Describe what you are looking for"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <Button type="submit" disabled={search.isPending}>
          <Search className="size-4" aria-hidden="true" />
          Find
        </Button>
      </form>
      {search.isError && (
        <p role="alert" className="text-sm text-destructive">
          {search.error.message}
        </p>
      )}
      {search.data?.length === 0 && (
        <p className="text-sm text-muted-foreground">No passage matches.</p>
      )}
      {search.data && search.data.length > 0 && (
        <ul aria-label="Passages" className="flex flex-col gap-2">
          {search.data.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="w-full rounded-md border p-3 text-left text-sm hover:bg-muted"
                onClick={() => onOpenPassage(p.documentId, { start: p.start, end: p.end })}
              >
                <span className="block font-medium">{p.documentTitle}</span>
                <span className="line-clamp-4 text-muted-foreground">{p.content}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
