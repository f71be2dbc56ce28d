/** Web-side shapes of documents, derived from the generated API schema. Timestamps are ISO 8601. */
import type { ReactNode } from 'react'
import type { components, operations } from '../../../lib/api-schema'

/** A library card: `preview` is the first 150 characters of the content. */
export type DocumentCard = components['schemas']['DocumentCard']

/** A page of the library plus the org's distinct document types. */
export type DocumentList =
  operations['listDocuments']['responses'][200]['content']['application/json']

/** A half-open character range `[start, end)` of a document's `content` (UTF-16 offsets). */
export interface Span {
  start: number
  end: number
}

/** What the workspace hands to the analysis shown beside an open document (see `renderAnalysis`). */
export interface DocumentAnalysisSlotProps {
  orgId: string
  documentId: string
  /** False when the document has no text (e.g. a scanned PDF), which disables running. */
  canAnalyze: boolean
  /** Why Analyze is disabled (shown beside it), or null. */
  analyzeDisabledReason?: string | null
  /** The passage highlighted in the document text, or null. */
  highlight: Span | null
  /** Highlights `span` in the document text (a finding was chosen). */
  onSelectSpan: (span: Span) => void
}

/** Renders the analysis beside an open document; supplied by the app layer, which composes features. */
export type RenderDocumentAnalysis = (props: DocumentAnalysisSlotProps) => ReactNode

/** A full document. File fields are null for pasted text; `textStatusMessage` explains empty text. */
export type DocumentDetail = components['schemas']['Document']
