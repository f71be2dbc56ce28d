import { Search } from 'lucide-react'
import { Input } from '../../../components/ui/input'
import { LabelledSelect } from '../../../components/labelled-select'
import { documentTypeLabel } from '../document-types'

interface LibraryFiltersProps {
  search: string
  onSearchChange: (value: string) => void
  type: string
  onTypeChange: (value: string) => void
  /** The org's distinct document types. */
  types: readonly string[]
}

/** Search box (title or content) and type filter ('All types' or one type) of the library. */
export function LibraryFilters({
  search,
  onSearchChange,
  type,
  onTypeChange,
  types,
}: LibraryFiltersProps) {
  // Keep a chosen type selectable, by its label, even if it no longer appears among the org's types.
  const options = types.includes(type) || type === 'all' ? types : [...types, type]
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <div className="relative flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          aria-label="Search documents"
          placeholder="Search title or text…"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          className="pl-8"
        />
      </div>
      <LabelledSelect
        label={<span className="sr-only">Filter by type</span>}
        className="gap-0"
        selectClassName="sm:w-40"
        value={type}
        onValueChange={onTypeChange}
        options={[
          { value: 'all', label: 'All types' },
          ...options.map((t) => ({ value: t, label: documentTypeLabel(t) })),
        ]}
      />
    </div>
  )
}
