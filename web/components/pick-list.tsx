/**
 * A screen's list of things to open beside the open one (reviews, comparisons): a labelled
 * navigation of buttons, the open one marked (`aria-current="page"`), with the query's loading,
 * error and empty states said in words. `query` is a TanStack Query result of `{ items }`.
 */
import type { ReactNode } from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import { Button } from './ui/button'

export interface PickListProps<T extends { id: string }> {
  /** The navigation's accessible name, also the plural the messages use ("Reviews"). */
  label: string
  query: Pick<UseQueryResult<{ items: T[] }>, 'status' | 'data' | 'error'>
  open: string | null
  onOpen(id: string): void
  /** What each button shows. */
  children(item: T): ReactNode
  /** Extra classes of each button (e.g. for a two-line label). */
  itemClassName?: string
}

export function PickList<T extends { id: string }>(props: PickListProps<T>) {
  const { query, label } = props
  const noun = label.toLowerCase()
  return (
    <nav aria-label={label} className="flex flex-col gap-1">
      {query.status === 'pending' && <p className="text-sm text-muted-foreground">Loading…</p>}
      {query.status === 'error' && (
        <p role="alert" className="text-sm text-destructive">
          The {noun} could not be loaded: {query.error?.message}
        </p>
      )}
      {query.data?.items.length === 0 && (
        <p className="text-sm text-muted-foreground">No {noun} yet.</p>
      )}
      {query.data?.items.map((item) => (
        <Button
          key={item.id}
          type="button"
          variant={item.id === props.open ? 'secondary' : 'ghost'}
          className={`justify-start ${props.itemClassName ?? ''}`.trim()}
          aria-current={item.id === props.open ? 'page' : undefined}
          onClick={() => props.onOpen(item.id)}
        >
          {props.children(item)}
        </Button>
      ))}
    </nav>
  )
}
