/** Suggested document types; the server's default for new documents is 'contract'. */

/** The default type of a new document. */
export const DEFAULT_DOCUMENT_TYPE = 'contract'

/** Types offered when adding a document, in menu order, with their labels. */
export const DOCUMENT_TYPES: readonly { value: string; label: string }[] = [
  { value: 'contract', label: 'Contract' },
  { value: 'nda', label: 'NDA' },
  { value: 'lease', label: 'Lease' },
  { value: 'employment', label: 'Employment' },
  { value: 'memo', label: 'Memo' },
  { value: 'letter', label: 'Letter' },
  { value: 'other', label: 'Other' },
]

/** The label of a type; types outside the suggested list (set through the API) show as stored. */
export function documentTypeLabel(type: string): string {
  return DOCUMENT_TYPES.find((t) => t.value === type)?.label ?? type
}
