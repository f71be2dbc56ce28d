import { LabelledSelect } from '../../../components/labelled-select'
import { useState } from 'react'
import { Button } from '../../../components/ui/button'
import { PAGE_SIZES } from '../paging'

interface EntitiesPagerProps {
  page: number
  lastPage: number
  onPageChange: (page: number) => void
  pageSize: number
  onPageSizeChange: (size: number) => void
  shown: number
  total: number
}

/**
 * Footer of the table: 'Rows: shown / total', page-number input (clamped by the parent on every
 * change; it may be emptied while typing another number, and shows the page again on blur), page
 * size, 'Page n of m'.
 */
export function EntitiesPager({
  page,
  lastPage,
  onPageChange,
  pageSize,
  onPageSizeChange,
  shown,
  total,
}: EntitiesPagerProps) {
  // '' while the user has cleared the field to type a new number; otherwise the page is shown.
  const [cleared, setCleared] = useState(false)
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <span>
        Rows: {shown} / {total}
      </span>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </Button>
        <label className="flex items-center gap-1">
          Page
          <input
            type="number"
            aria-label="Page number"
            min={1}
            max={lastPage}
            value={cleared ? '' : page}
            onChange={(event) => {
              setCleared(event.target.value === '')
              if (event.target.value !== '') onPageChange(Number(event.target.value))
            }}
            onBlur={() => setCleared(false)}
            className="h-8 w-16 rounded-md border border-input bg-background px-2"
          />
        </label>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={page >= lastPage}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
        <LabelledSelect
          label={<span className="sr-only">Page size</span>}
          layout="inline"
          className="gap-0"
          value={String(pageSize)}
          onValueChange={(size) => onPageSizeChange(Number(size))}
          options={PAGE_SIZES.map((size) => ({ value: String(size), label: `${size}/page` }))}
          selectClassName="h-8"
        />
        <span>
          Page {page} of {lastPage}
        </span>
      </div>
    </div>
  )
}
