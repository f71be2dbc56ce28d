import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Download, FileCode2 } from 'lucide-react'
import { LabelledSelect } from '../../components/labelled-select'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { comparedDocumentQuery, redlineHref, type Comparison, type ComparisonChange } from './api'
import { changeGroups, citationText, clauseName, type Filter } from './change-groups'

type Result = NonNullable<Comparison['result']>

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All changes' },
  { value: 'substantive', label: 'Substantive only' },
  { value: 'format', label: 'Changes of form only' },
]

const KIND_TEXT: Record<ComparisonChange['kind'], string> = {
  inserted: 'Added',
  deleted: 'Removed',
  moved: 'Moved',
  modified: 'Changed',
}

/** Characters of a change's text shown in the list (the panes show it whole). */
const SHOWN = 160
const shorten = (text: string) =>
  text.length > SHOWN ? `${text.slice(0, SHOWN - 1).trimEnd()}…` : text

/**
 * A done comparison: its counts, the redlines, a filter (all, substantive, form only), the
 * changes clause by clause, and both versions' texts beside them. Choosing a change (click, or
 * the arrow keys in the list) marks and scrolls to its place in both texts.
 */
export function ComparisonChanges(props: {
  orgId: string
  comparison: Comparison
  result: Result
}) {
  const { orgId, comparison, result } = props
  const base = useQuery(comparedDocumentQuery(orgId, comparison.baseDocumentId))
  const revised = useQuery(comparedDocumentQuery(orgId, comparison.revisedDocumentId))
  const [filter, setFilter] = useState<Filter>('all')
  const [selected, setSelected] = useState<number | null>(null)
  const groups = changeGroups(result, filter)
  const chosen = selected === null ? null : (result.changes[selected] ?? null)
  const listRef = useRef<HTMLOListElement>(null)

  // Arrow keys move between the changes' buttons (and choose the one reached).
  const onListKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return
    const buttons = [
      ...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-change]') ?? []),
    ]
    if (buttons.length === 0) return
    event.preventDefault()
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? buttons.length - 1
          : event.key === 'ArrowDown'
            ? Math.min(buttons.length - 1, at + 1)
            : Math.max(0, at - 1)
    buttons[next]?.focus()
    buttons[next]?.click()
  }

  const counts = comparison.counts
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h2 className="text-lg font-semibold">
            {revised.data?.title ?? 'Later version'} compared with{' '}
            {base.data?.title ?? 'earlier version'}
          </h2>
          {counts && (
            <p className="text-sm text-muted-foreground">
              {counts.substantive} substantive {counts.substantive === 1 ? 'change' : 'changes'},{' '}
              {counts.moves} moved {counts.moves === 1 ? 'clause' : 'clauses'}, {counts.formatOnly}{' '}
              {counts.formatOnly === 1 ? 'change' : 'changes'} of form only
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={redlineHref(orgId, comparison.id, 'docx')} download>
              <Download aria-hidden="true" />
              Redline (Word, tracked changes)
            </a>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={redlineHref(orgId, comparison.id, 'html')} download>
              <FileCode2 aria-hidden="true" />
              Redline (HTML)
            </a>
          </Button>
        </div>
      </div>
      <LabelledSelect
        label="Show"
        layout="inline"
        value={filter}
        onValueChange={(value) => setFilter(value as Filter)}
        options={FILTERS}
      />
      <div className="grid gap-4 xl:grid-cols-[minmax(18rem,24rem)_1fr_1fr]">
        <section aria-label="Changes" className="min-w-0">
          {groups.length === 0 && (
            <p className="text-sm text-muted-foreground">
              {result.changes.length === 0
                ? 'The two versions have the same text.'
                : 'No change of this kind.'}
            </p>
          )}
          <ol ref={listRef} className="flex max-h-[70vh] flex-col gap-3 overflow-auto">
            {groups.map((group) => (
              <li key={group.key}>
                <h3 className="mb-1 text-sm font-medium">{group.title}</h3>
                <ol className="flex flex-col gap-1">
                  {group.changes.map(({ change, index }) => (
                    <li key={index}>
                      <ChangeButton
                        change={change}
                        result={result}
                        selected={index === selected}
                        onSelect={() => setSelected(index)}
                        onKeyDown={onListKey}
                      />
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ol>
        </section>
        <VersionText
          label="Earlier version"
          title={base.data?.title}
          content={base.data?.content}
          span={chosen?.base ?? null}
          tone="deleted"
          error={base.error?.message}
        />
        <VersionText
          label="Later version"
          title={revised.data?.title}
          content={revised.data?.content}
          span={chosen?.revised ?? null}
          tone="inserted"
          error={revised.error?.message}
        />
      </div>
    </div>
  )
}

function ChangeButton(props: {
  change: ComparisonChange
  result: Result
  selected: boolean
  onSelect(): void
  onKeyDown(event: KeyboardEvent<HTMLButtonElement>): void
}) {
  const { change, result } = props
  const from = clauseName(result.baseClauses, change.baseClause)
  const to = clauseName(result.revisedClauses, change.revisedClause)
  return (
    <button
      type="button"
      data-change
      aria-pressed={props.selected}
      onClick={props.onSelect}
      onKeyDown={props.onKeyDown}
      className="flex w-full flex-col gap-1 rounded-md border p-2 text-left text-sm hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:border-primary aria-pressed:bg-muted"
    >
      <span className="flex flex-wrap items-center gap-1">
        <Badge variant={change.substantive ? 'default' : 'outline'}>{KIND_TEXT[change.kind]}</Badge>
        {!change.substantive && change.format && (
          <Badge variant="secondary">form: {change.format}</Badge>
        )}
        {change.note && <span className="font-medium">{change.note}</span>}
      </span>
      {change.kind === 'moved' ? (
        <span>
          {from ?? 'A clause'} moved{to && to !== from ? ` (now ${to})` : ''}:{' '}
          <span className="text-muted-foreground">{shorten(change.revisedText)}</span>
        </span>
      ) : (
        <span className="break-words">
          {change.baseText && (
            <del className="bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-200">
              {shorten(change.baseText)}
            </del>
          )}
          {change.baseText && change.revisedText && ' → '}
          {change.revisedText && (
            <ins className="bg-green-50 text-green-900 no-underline dark:bg-green-950 dark:text-green-200">
              {shorten(change.revisedText)}
            </ins>
          )}
        </span>
      )}
      <span className="text-xs text-muted-foreground">{citationText(change, result)}</span>
    </button>
  )
}

/**
 * One version's text with the chosen change's place marked (its text, or a caret where an
 * insertion or deletion stands in this version) and scrolled into view.
 */
function VersionText(props: {
  label: string
  title: string | undefined
  content: string | undefined
  span: { start: number; end: number } | null
  tone: 'inserted' | 'deleted'
  error: string | undefined
}) {
  const markRef = useRef<HTMLElement>(null)
  const regionRef = useRef<HTMLDivElement>(null)
  const { content, span } = props
  useEffect(() => {
    const mark = markRef.current
    const region = regionRef.current
    if (!mark || !region) return
    const box = region.getBoundingClientRect()
    const offset = mark.getBoundingClientRect().top - box.top
    region.scrollTo?.({ top: Math.max(0, region.scrollTop + offset - region.clientHeight / 2) })
  }, [span])
  const markClass =
    props.tone === 'inserted'
      ? 'rounded-sm bg-green-200 text-inherit dark:bg-green-800/60'
      : 'rounded-sm bg-red-200 text-inherit dark:bg-red-800/60'
  const at = span && content !== undefined ? clamp(span, content.length) : null
  return (
    <section aria-label={props.label} className="flex min-w-0 flex-col gap-1">
      <h3 className="text-sm font-medium">
        {props.label}
        {props.title ? `: ${props.title}` : ''}
      </h3>
      {props.error && (
        <p role="alert" className="text-sm text-destructive">
          Its text could not be loaded: {props.error}
        </p>
      )}
      <div
        ref={regionRef}
        role="region"
        aria-label={`${props.label} text`}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable so keyboard users can scroll it (WCAG 2.1.1)
        tabIndex={0}
        className="max-h-[70vh] overflow-auto rounded-md border bg-background p-4 font-serif text-sm leading-relaxed break-words whitespace-pre-wrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {content === undefined ? (
          <span className="text-muted-foreground">Loading…</span>
        ) : at ? (
          <>
            {content.slice(0, at.start)}
            {at.end > at.start ? (
              <mark ref={markRef} data-testid={`${props.tone}-mark`} className={markClass}>
                {content.slice(at.start, at.end)}
              </mark>
            ) : (
              <mark
                ref={markRef}
                data-testid={`${props.tone}-mark`}
                className={markClass}
                aria-label="Nothing here in this version: the change's place"
              >
                ‸
              </mark>
            )}
            {content.slice(at.end)}
          </>
        ) : (
          content
        )}
      </div>
    </section>
  )
}

function clamp(span: { start: number; end: number }, length: number) {
  const start = Math.max(0, Math.min(span.start, length))
  return { start, end: Math.max(start, Math.min(span.end, length)) }
}
