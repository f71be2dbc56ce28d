import { useEffect, useMemo, useRef, useState } from 'react'
import * as z from 'zod/mini'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { LabelledSelect } from '../../components/labelled-select'
import { PageHeader } from '../../components/page-header'
import { PickList } from '../../components/pick-list'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { Progress } from '../../components/ui/progress'
import { useIsMobile } from '../../components/ui/sidebar'
import { passageHref } from '../../hooks/passage-link'
import { useOrgScope } from '../../lib/org-scope'
import {
  addPresetColumn,
  createReview,
  exportHref,
  reviewCellsPageQuery,
  rowsPerPage,
  reviewDocumentsQuery,
  reviewListQuery,
  reviewPresetsQuery,
  reviewQuery,
  reviewsKey,
  overrideCell,
  verifyCell,
  type Review,
  type ReviewCell,
} from './api'
import { cellStateText, cellText } from './cell-text'
import { CellOverrideForm, type OverrideInput } from './cell-override-form'
import { ReviewGridTable, type CellNav, type GridRow } from './review-grid-table'
import { useReviewCellRefresh } from './use-review-cell-refresh'

/** The presets a new review starts with ticked: the key terms most reviews ask for. */
const DEFAULT_PRESETS = ['term:parties', 'term:agreementDate', 'term:governingLaw']

/**
 * /dashboard/:orgSlug/reviews: the organisation's review grids (issue 44, decision 0137). The
 * list of reviews and a builder of new ones; the review the address names (`?review=`) as a grid
 * of documents × questions whose cells arrive as the fill writes them (the organisation's realtime
 * channel), each opening its citations beside the grid.
 */
export function ReviewsPage() {
  const scope = useOrgScope()
  const [params, setParams] = useSearchParams()
  const open = params.get('review')
  const [building, setBuilding] = useState(false)
  const select = (reviewId: string) => {
    setBuilding(false)
    setParams((p) => {
      p.set('review', reviewId)
      return p
    })
  }
  return (
    <>
      <PageHeader
        title="Reviews"
        description="Ask the same questions of many documents: one row per document, one column per question, every answer cited."
        actions={
          <Button type="button" onClick={() => setBuilding((b) => !b)} aria-expanded={building}>
            New review
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <ReviewList key={scope.orgId} orgId={scope.orgId} open={open} onOpen={select} />
        <div className="min-w-0">
          {building ? (
            <ReviewBuilder orgId={scope.orgId} onCreated={select} />
          ) : open ? (
            <ReviewGrid key={open} orgId={scope.orgId} reviewId={open} />
          ) : (
            <p className="text-sm text-muted-foreground">
              Open a review, or make a new one from your documents.
            </p>
          )}
        </div>
      </div>
    </>
  )
}

function ReviewList(props: { orgId: string; open: string | null; onOpen(id: string): void }) {
  const list = useQuery(reviewListQuery(props.orgId))
  return (
    <PickList label="Reviews" query={list} open={props.open} onOpen={props.onOpen}>
      {(review) => review.name}
    </PickList>
  )
}

/** The builder's checked field: the review's name (trimmed, required). */
const builderSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Name the review.'), z.maxLength(200)),
})

/** The column builder: a name, the documents (rows), presets and custom yes/no questions. */
function ReviewBuilder({ orgId, onCreated }: { orgId: string; onCreated(id: string): void }) {
  const queryClient = useQueryClient()
  const documents = useQuery(reviewDocumentsQuery(orgId))
  const presets = useQuery(reviewPresetsQuery(orgId))
  const form = useZodForm(builderSchema, { name: '' })
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set(DEFAULT_PRESETS))
  const [questions, setQuestions] = useState<string[]>([])
  const [question, setQuestion] = useState('')
  const create = useMutation({
    mutationFn: (name: string) =>
      createReview(orgId, {
        name,
        documentIds: [...chosen],
        presets: [...ticked],
        questions,
      }),
    onSuccess: async (review) => {
      await queryClient.invalidateQueries({ queryKey: reviewsKey(orgId) })
      onCreated(review.id)
    },
    onError: (error) => toast.error(`The review could not be made: ${error.message}`),
  })
  const toggle = (set: ReadonlySet<string>, key: string) => {
    const next = new Set(set)
    if (!next.delete(key)) next.add(key)
    return next
  }
  const ready = chosen.size > 0 && ticked.size + questions.length > 0
  return (
    <Form
      form={form}
      aria-label="New review"
      className="flex flex-col gap-4"
      onSubmit={(values) => create.mutate(values.name)}
    >
      <FormField<z.input<typeof builderSchema>> name="name" label="Name" maxLength={200} />
      <fieldset className="flex max-h-64 flex-col gap-1 overflow-y-auto rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">Documents ({chosen.size} chosen)</legend>
        {documents.status === 'pending' && <p className="text-sm">Loading…</p>}
        {documents.data?.items.length === 0 && (
          <p className="text-sm text-muted-foreground">No documents yet.</p>
        )}
        {documents.data?.items.map((d) => (
          <label key={d.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={chosen.has(d.id)}
              onChange={() => setChosen((s) => toggle(s, d.id))}
            />
            {d.title}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex max-h-64 flex-col gap-1 overflow-y-auto rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">Preset columns ({ticked.size} chosen)</legend>
        {presets.data?.items.map((p) => (
          <label key={p.key} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={ticked.has(p.key)}
              onChange={() => setTicked((s) => toggle(s, p.key))}
            />
            {p.label}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor="review-question">Your own yes/no question</Label>
        <div className="flex gap-2">
          <Input
            id="review-question"
            value={question}
            maxLength={500}
            onChange={(e) => setQuestion(e.target.value)}
          />
          <Button
            type="button"
            variant="outline"
            disabled={question.trim().length < 3}
            onClick={() => {
              setQuestions((q) => [...q, question.trim()])
              setQuestion('')
            }}
          >
            Add question
          </Button>
        </div>
        {questions.length > 0 && (
          <ul aria-label="Your questions" className="list-disc pl-5 text-sm">
            {questions.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <FormSubmit pending={create.isPending} disabled={!ready}>
          Make the review
        </FormSubmit>
      </div>
    </Form>
  )
}

/**
 * One review: progress, export links, the grid, and the citations of the cell opened. Narrower
 * than 768 px (useIsMobile, as the sidebar) the grid is a list of documents, each a card of its
 * columns' answers; opening one scrolls its citations (below the list) into view. Escape closes
 * the citations and gives the focus back to the cell that opened them.
 */
function ReviewGrid({ orgId, reviewId }: { orgId: string; reviewId: string }) {
  const scope = useOrgScope()
  const queryClient = useQueryClient()
  const review = useQuery(reviewQuery(orgId, reviewId))
  const documents = useQuery(reviewDocumentsQuery(orgId))
  // The cell opened beside the grid: its id and the page of cells it is read in.
  const [openCell, setOpenCell] = useState<{ id: string; page: number } | null>(null)
  const [overriding, setOverriding] = useState(false)
  const columnCount = review.data?.columns.length ?? 0
  const openedPage = useQuery({
    ...reviewCellsPageQuery(orgId, reviewId, openCell?.page ?? 0, columnCount),
    enabled: openCell !== null && columnCount > 0,
  })
  const filling = review.data ? review.data.cells.pending + review.data.cells.running > 0 : false
  useReviewCellRefresh(orgId, reviewId, filling)
  const titles = useMemo(
    () => new Map((documents.data?.items ?? []).map((d) => [d.id, d.title])),
    [documents.data],
  )
  const phone = useIsMobile()
  const aside = useRef<HTMLElement>(null)
  // The control that opened the citations, focused again when Escape closes them.
  const opener = useRef<HTMLElement | null>(null)
  const renderCell = (row: GridRow, column: Review['columns'][number], nav: CellNav) => {
    const cell = row.cells.get(column.id)
    if (!cell) return null
    const state = phone ? cellStateText(cell) : ''
    const button = (
      <button
        type="button"
        {...nav}
        className="w-full text-left underline-offset-2 hover:underline aria-pressed:font-semibold"
        aria-pressed={openCell?.id === cell.id}
        aria-label={`${column.label} of ${row.title}: ${cellText(cell)}`}
        onClick={(event) => {
          opener.current = event.currentTarget
          setOpenCell({ id: cell.id, page: Math.floor(row.index / rowsPerPage(columnCount)) })
          if (phone) scrollToCitations(aside.current)
        }}
      >
        {cellText(cell)}
      </button>
    )
    if (!state) return button
    return (
      <>
        {button}
        <span className="block text-xs text-muted-foreground">{state}</span>
      </>
    )
  }
  // Escape pressed in the review (its grid or citations, not a menu it opened elsewhere, nor one
  // that took the key first) closes the citations.
  const section = useRef<HTMLElement>(null)
  const citationsOpen = openCell !== null
  useEffect(() => {
    if (!citationsOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      if (!(event.target instanceof Node) || !section.current?.contains(event.target)) return
      event.preventDefault()
      setOpenCell(null)
      setOverriding(false)
      if (opener.current?.isConnected) opener.current.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [citationsOpen])
  const cellsKey = [...reviewsKey(orgId), reviewId, 'cells']
  const verify = useMutation({
    mutationFn: (cell: ReviewCell) => verifyCell(orgId, reviewId, cell.id, !cell.verified),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cellsKey }),
    onError: (error) => toast.error(`The cell could not be marked: ${error.message}`),
  })
  const override = useMutation({
    mutationFn: (input: { cell: ReviewCell; override: OverrideInput | null }) =>
      overrideCell(orgId, reviewId, input.cell.id, input.override),
    onSuccess: async () => {
      setOverriding(false)
      await queryClient.invalidateQueries({ queryKey: [...reviewsKey(orgId), reviewId] })
    },
    onError: (error) => toast.error(`The override could not be saved: ${error.message}`),
  })
  const opened = openCell ? openedPage.data?.items.find((c) => c.id === openCell.id) : undefined
  const openedColumn = review.data?.columns.find((c) => c.id === opened?.columnId)
  if (review.status === 'error')
    return (
      <p role="alert" className="text-sm text-destructive">
        The review could not be loaded: {review.error.message}
      </p>
    )
  return (
    <section
      ref={section}
      aria-label={review.data?.name ?? 'Review'}
      className="flex min-w-0 flex-col gap-4"
    >
      {review.data && <FillProgress review={review.data} />}
      <div className="flex flex-wrap gap-2 text-sm">
        <a className="underline" href={exportHref(orgId, reviewId, 'xlsx')} download>
          Download XLSX
        </a>
        <a className="underline" href={exportHref(orgId, reviewId, 'csv')} download>
          Download CSV
        </a>
        <AddColumn orgId={orgId} review={review.data} />
      </div>
      <div className="grid gap-4 xl:grid-cols-[1fr_20rem]">
        {review.data ? (
          <ReviewGridTable
            orgId={orgId}
            review={review.data}
            titles={titles}
            layout={phone ? 'list' : 'table'}
            renderCell={renderCell}
          />
        ) : (
          <p className="text-sm text-muted-foreground">Loading…</p>
        )}
        <aside
          ref={aside}
          aria-label="Citation"
          className="min-w-0 scroll-mt-4 rounded-md border p-3 text-sm break-words"
        >
          {opened && openedColumn ? (
            <>
              <h2 className="font-medium">{openedColumn.label}</h2>
              <p className="mt-1">{cellText(opened)}</p>
              {opened.override && opened.text !== null && (
                <p className="mt-1 text-muted-foreground">
                  Overridden; the reading was {opened.text}.
                </p>
              )}
              {opened.override?.note && <p className="mt-1">Note: {opened.override.note}</p>}
              {opened.reason && <p className="mt-1 text-muted-foreground">{opened.reason}</p>}
              <ol aria-label="Citations" className="mt-2 flex flex-col gap-2">
                {opened.citations.map((c) => (
                  <li key={`${c.start}-${c.end}`}>
                    <Link
                      className="underline underline-offset-2 hover:text-primary"
                      to={passageHref(scope, opened.documentId, c)}
                    >
                      “{c.text}”
                    </Link>{' '}
                    <span className="text-xs text-muted-foreground">
                      characters {c.start}–{c.end}
                    </span>
                  </li>
                ))}
              </ol>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="mt-3"
                aria-pressed={opened.verified}
                disabled={verify.isPending}
                onClick={() => verify.mutate(opened)}
              >
                {opened.verified ? 'Checked' : 'Mark as checked'}
              </Button>
              {overriding ? (
                <CellOverrideForm
                  key={opened.id}
                  type={openedColumn.answerType}
                  pending={override.isPending}
                  onSave={(input) => override.mutate({ cell: opened, override: input })}
                  onCancel={() => setOverriding(false)}
                />
              ) : (
                <div className="mt-2 flex gap-2">
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    onClick={() => setOverriding(true)}
                  >
                    Override
                  </Button>
                  {opened.override && (
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      disabled={override.isPending}
                      onClick={() => override.mutate({ cell: opened, override: null })}
                    >
                      Remove override
                    </Button>
                  )}
                </div>
              )}
            </>
          ) : (
            <p className="text-muted-foreground">
              Open a cell to read where its answer comes from.
            </p>
          )}
        </aside>
      </div>
    </section>
  )
}

/** A preset column added at the right of `review` (the presets it has not yet). */
function AddColumn({ orgId, review }: { orgId: string; review: Review | undefined }) {
  const queryClient = useQueryClient()
  const presets = useQuery(reviewPresetsQuery(orgId))
  const [preset, setPreset] = useState('')
  const add = useMutation({
    mutationFn: () => addPresetColumn(orgId, review!.id, preset),
    onSuccess: async () => {
      setPreset('')
      await queryClient.invalidateQueries({ queryKey: [...reviewsKey(orgId), review!.id] })
    },
    onError: (error) => toast.error(`The column could not be added: ${error.message}`),
  })
  if (!review) return null
  const present = new Set(review.columns.map((c) => c.presetKey))
  const options = (presets.data?.items ?? [])
    .filter((p) => !present.has(p.key))
    .map((p) => ({ value: p.key, label: p.label }))
  return (
    <div className="flex max-w-full min-w-0 flex-wrap items-end gap-2">
      <LabelledSelect
        label="Preset column"
        layout="inline"
        className="min-w-0"
        selectClassName="min-w-0 max-w-full"
        value={preset}
        onValueChange={setPreset}
        options={options}
        placeholder="Choose…"
        placeholderDisabled
      />
      <Button
        type="button"
        size="sm"
        variant="outline"
        disabled={preset === '' || add.isPending}
        onClick={() => add.mutate()}
      >
        Add column
      </Button>
    </div>
  )
}

/**
 * Scrolls the citations (below the list on a phone) to the top of the screen: smoothly, unless
 * the reader asked for reduced motion. Does nothing where the browser cannot scroll (jsdom).
 */
function scrollToCitations(element: HTMLElement | null): void {
  const reduced =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  element?.scrollIntoView?.({ block: 'start', behavior: reduced ? 'auto' : 'smooth' })
}

/** The fill's progress: cells no longer pending of all cells. */
function FillProgress({ review }: { review: Review }) {
  const { total, pending, running } = review.cells
  const done = total - pending - running
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm">
        {review.rows} documents × {review.columns.length} questions: {done} of {total} cells
        answered
        {review.fill && ['queued', 'running'].includes(review.fill.status) ? ' so far' : ''}
      </p>
      <Progress aria-label="Fill progress" value={total === 0 ? 100 : (done / total) * 100} />
    </div>
  )
}
