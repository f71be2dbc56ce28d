import { orgPath } from '../lib/org-path'
import type { OrgUrlScope } from '../lib/org-scope'

/**
 * The address of a passage of a document in organisation `scope`: the Documents screen opens
 * `document` and highlights `[start, end)` of its content. Lets search results and citations of
 * other features open a passage without importing the documents feature.
 */
export function passageHref(
  scope: Pick<OrgUrlScope, 'orgSlug' | 'appSlug'>,
  documentId: string,
  span: { start: number; end: number },
): string {
  return orgPath(scope, 'documents', {
    document: documentId,
    start: String(span.start),
    end: String(span.end),
  })
}

/** The span `start`/`end` of a passage address, or null when absent or not a valid range. */
export function spanFromParams(params: URLSearchParams): { start: number; end: number } | null {
  const start = Number(params.get('start'))
  const end = Number(params.get('end'))
  if (!params.has('start') || !Number.isInteger(start) || !Number.isInteger(end)) return null
  return start >= 0 && end > start ? { start, end } : null
}
