/**
 * Review grid data (issue 44, decision 0137): the organisation's reviews, one review with its
 * columns and cell counts, its cells (pages of whole rows, up to CELL_LIMIT cells each, in grid
 * order, read as the grid scrolls), the preset
 * columns, and the documents a new review can be made of. Keys start with ['orgs', orgId].
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type Review = components['schemas']['Review']
export type ReviewCell = components['schemas']['ReviewCell']
export type ReviewAnswer = components['schemas']['ReviewAnswer']
export type ReviewPreset = components['schemas']['ReviewPreset']

/** Cells read at once: the server's page ceiling (CellQuery's maxLimit). */
export const CELL_LIMIT = 1000
/** Documents offered to a new review, and named in the grid: the list's ceiling. */
export const DOCUMENT_LIMIT = 200

export const reviewsKey = (orgId: string) => ['orgs', orgId, 'reviews'] as const

/** The organisation's reviews, newest first (first page of 100). */
export const reviewListQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...reviewsKey(orgId), 'list'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/reviews', {
          params: { path: { orgId }, query: { limit: 100 } },
          signal,
        })
        .then(unwrap),
  })

/** One review: its columns, cell counts by state and latest fill. 404 when missing. */
export const reviewQuery = (orgId: string, reviewId: string) =>
  queryOptions({
    queryKey: [...reviewsKey(orgId), reviewId] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/reviews/{reviewId}', {
          params: { path: { orgId, reviewId } },
          signal,
        })
        .then(unwrap),
  })

/** Rows in one page of cells: as many whole rows of `columns` cells as CELL_LIMIT holds (≥ 1). */
export const rowsPerPage = (columns: number) =>
  Math.max(1, Math.floor(CELL_LIMIT / Math.max(1, columns)))

/**
 * Page `page` of a review's cells in grid order (row, then column): its rows page × perPage to
 * (page + 1) × perPage − 1 (perPage: rowsPerPage(columns)), each with its `columns` cells. Under
 * the review's key, so invalidating the review reads its pages again.
 */
export const reviewCellsPageQuery = (
  orgId: string,
  reviewId: string,
  page: number,
  columns: number,
) =>
  queryOptions({
    queryKey: [...reviewsKey(orgId), reviewId, 'cells', columns, page] as const,
    queryFn: ({ signal }) => {
      const cells = rowsPerPage(columns) * Math.max(1, columns)
      return api
        .GET('/api/v1/orgs/{orgId}/reviews/{reviewId}/cells', {
          params: { path: { orgId, reviewId }, query: { offset: page * cells, limit: cells } },
          signal,
        })
        .then(unwrap)
    },
  })

/**
 * Every cell of column `columnId`, in row order (cell i is row i's): read in pages of CELL_LIMIT
 * cells (`columnId` filter) until a page comes back short. The grid's sort and filter read it.
 * Under the review's cells key, so the fill's invalidations read it again.
 */
export const reviewColumnCellsQuery = (orgId: string, reviewId: string, columnId: string) =>
  queryOptions({
    queryKey: [...reviewsKey(orgId), reviewId, 'cells', 'column', columnId] as const,
    queryFn: async ({ signal }) => {
      const cells: ReviewCell[] = []
      for (;;) {
        const page = await api
          .GET('/api/v1/orgs/{orgId}/reviews/{reviewId}/cells', {
            params: {
              path: { orgId, reviewId },
              query: { columnId, offset: cells.length, limit: CELL_LIMIT },
            },
            signal,
          })
          .then(unwrap)
        cells.push(...page.items)
        if (page.items.length < CELL_LIMIT) return cells
      }
    },
  })

/** The preset columns the builder offers (key terms, CUAD clauses, deal-sheet lines). */
export const reviewPresetsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...reviewsKey(orgId), 'presets'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/reviews/presets', { params: { path: { orgId } }, signal })
        .then(unwrap),
    staleTime: Infinity,
  })

/** The organisation's latest DOCUMENT_LIMIT documents (id and title), for rows and the builder. */
export const reviewDocumentsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'documents', 'review-picker'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/documents', {
          params: { path: { orgId }, query: { limit: DOCUMENT_LIMIT } },
          signal,
        })
        .then(unwrap),
  })

/** What the builder sends: a name, the chosen documents, preset keys and custom yes/no questions. */
export interface NewReview {
  name: string
  documentIds: string[]
  presets: string[]
  questions: string[]
}

/** Creates a review (its fill queued); resolves to it. Throws ApiError with the problem. */
export function createReview(orgId: string, review: NewReview) {
  return api
    .POST('/api/v1/orgs/{orgId}/reviews', {
      params: { path: { orgId } },
      body: {
        name: review.name,
        rows: { source: 'selection', documentIds: review.documentIds },
        columns: [
          ...review.presets.map((preset) => ({ preset })),
          ...review.questions.map((question) => ({ question, answerType: 'yes_no' as const })),
        ],
      },
    })
    .then(unwrap)
}

/** Marks cell `cellId` checked by a lawyer (or not); resolves to the cell. Throws ApiError. */
export function verifyCell(orgId: string, reviewId: string, cellId: string, verified: boolean) {
  return api
    .PUT('/api/v1/orgs/{orgId}/reviews/{reviewId}/cells/{cellId}/verified', {
      params: { path: { orgId, reviewId, cellId } },
      body: { verified },
    })
    .then(unwrap)
}

/**
 * Sets a lawyer's answer on cell `cellId` (`override.answer` null: not in the document), or
 * removes it (`override` null); resolves to the cell. Throws ApiError (400 for another type).
 */
export function overrideCell(
  orgId: string,
  reviewId: string,
  cellId: string,
  override: { answer: ReviewAnswer | null; note: string | null } | null,
) {
  return api
    .PUT('/api/v1/orgs/{orgId}/reviews/{reviewId}/cells/{cellId}/override', {
      params: { path: { orgId, reviewId, cellId } },
      body: { override },
    })
    .then(unwrap)
}

/**
 * Adds the preset column `preset` at the right of review `reviewId` (its cells pending, a fill
 * queued). Throws ApiError (413 past 50 columns, 400 for an unknown preset).
 */
export function addPresetColumn(orgId: string, reviewId: string, preset: string) {
  return api
    .POST('/api/v1/orgs/{orgId}/reviews/{reviewId}/columns', {
      params: { path: { orgId, reviewId } },
      body: { preset },
    })
    .then(unwrap)
}

/** The export's address (a download link: the session cookie authenticates it). */
export function exportHref(orgId: string, reviewId: string, format: 'xlsx' | 'csv'): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/reviews/${encodeURIComponent(reviewId)}/export?format=${format}`
}

/** Documents named in one titles read: the documents list's `ids` ceiling (MAX_LISTED_IDS). */
export const TITLE_LIMIT = 100

/**
 * The titles of documents `documentIds` (at most TITLE_LIMIT), for grid rows past the builder's
 * latest DOCUMENT_LIMIT documents: one read of the documents list by `ids` (cards, never the
 * text), as a map of id to title; a document gone or out of reach is absent. Cached for ten
 * minutes. Throws ApiError.
 */
export const documentTitlesQuery = (orgId: string, documentIds: readonly string[]) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'documents', 'titles', documentIds] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/documents', {
          params: {
            path: { orgId },
            query: { ids: documentIds.join(','), limit: documentIds.length },
          },
          signal,
        })
        .then(unwrap)
        .then((page) => new Map(page.items.map((d) => [d.id, d.title] as const))),
    staleTime: 10 * 60_000,
    retry: false,
  })
