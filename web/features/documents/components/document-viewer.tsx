import { Download, BookCheck, GitCompare, TriangleAlert } from 'lucide-react'
import { Link } from 'react-router'
import type { ReactNode, Ref } from 'react'
import { Badge } from '../../../components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card'
import { orgPath } from '../../../lib/org-path'
import { useOrgScopeIfAny } from '../../../lib/org-scope'
import { documentFileUrl } from '../api/documents-api'
import { DocumentTextView } from './document-text-view'
import { documentTypeLabel } from '../document-types'
import { formatDate } from '../format-date'
import { ScanPageView } from './scan-page-view'
import type { DocumentDetail, Span } from '../api/types'

interface DocumentViewerProps {
  orgId: string
  document: DocumentDetail
  highlight: Span | null
  /** Buttons acting on the document (rename, delete), shown beside its title. */
  actions?: ReactNode
  /** The title heading, focusable from script (tabIndex -1) so opening a document can focus it. */
  headingRef?: Ref<HTMLHeadingElement>
}

/** Formats a byte count, e.g. 1536 → '1.5 KB'. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** An opened document: title, type, source file and its text (or why there is none). */
export function DocumentViewer({
  orgId,
  document,
  highlight,
  actions,
  headingRef,
}: DocumentViewerProps) {
  const urlScope = useOrgScopeIfAny()
  return (
    <Card>
      <CardHeader className="gap-2">
        <div className="flex items-start justify-between gap-2">
          <h2
            ref={headingRef}
            tabIndex={-1}
            className="min-w-0 text-lg leading-tight font-semibold tracking-tight break-words outline-none"
          >
            {document.title}
          </h2>
          <div className="flex shrink-0 items-center gap-1">
            <Badge variant="outline">{documentTypeLabel(document.documentType)}</Badge>
            {actions}
          </div>
        </div>
        <CardDescription className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span>Added {formatDate(document.createdAt)}</span>
          {document.fileName && (
            <a
              href={documentFileUrl(orgId, document.id)}
              download={document.fileName}
              className="inline-flex items-center gap-1 underline-offset-4 hover:underline"
            >
              <Download className="size-3.5" aria-hidden="true" />
              {document.fileName}
              {document.sizeBytes !== null && ` (${formatBytes(document.sizeBytes)})`}
            </a>
          )}
          {urlScope && (
            <Link
              to={orgPath(urlScope, 'comparisons', { base: document.id })}
              title={`Compare ${document.title} with another version`}
              className="inline-flex items-center gap-1 underline-offset-4 hover:underline"
            >
              <GitCompare className="size-3.5" aria-hidden="true" />
              Compare with…
            </Link>
          )}
          {urlScope && (
            <Link
              to={orgPath(urlScope, 'playbooks', { check: document.id })}
              title={`Check ${document.title} against a playbook`}
              className="inline-flex items-center gap-1 underline-offset-4 hover:underline"
            >
              <BookCheck className="size-3.5" aria-hidden="true" />
              Check against playbook…
            </Link>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {document.textStatusMessage && (
          <p className="flex items-center gap-2 rounded-md border border-dashed p-3 text-sm text-muted-foreground">
            <TriangleAlert className="size-4" aria-hidden="true" />
            {document.textStatusMessage}
          </p>
        )}
        {document.textStatus === 'ocr' && document.pageStarts && (
          <ScanPageView
            orgId={orgId}
            documentId={document.id}
            pageStarts={document.pageStarts}
            highlight={highlight}
          />
        )}
        {document.content && <DocumentTextView content={document.content} highlight={highlight} />}
      </CardContent>
    </Card>
  )
}
