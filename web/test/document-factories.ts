/** Test factories for documents as the API returns them; each call builds a fresh object. */
import type { DocumentCard, DocumentDetail } from '../features/documents/api/types'

/** A library card of a pasted NDA ('doc-1', 'Acme NDA'); `overrides` replace any field. */
export function makeDocumentCard(overrides: Partial<DocumentCard> = {}): DocumentCard {
  return {
    id: 'doc-1',
    appId: null,
    title: 'Acme NDA',
    documentType: 'nda',
    preview: 'Mutual non-disclosure agreement between Acme Corp and Beta LLC.',
    createdAt: '2026-03-10T09:00:00.000Z',
    textStatus: 'ok',
    ...overrides,
  }
}

/** A full pasted document ('doc-1', 'Acme NDA') with `content`; `overrides` replace any field. */
export function makeDocumentDetail(
  content: string,
  overrides: Partial<DocumentDetail> = {},
): DocumentDetail {
  return {
    id: 'doc-1',
    appId: null,
    title: 'Acme NDA',
    content,
    documentType: 'nda',
    createdAt: '2026-03-10T09:00:00.000Z',
    createdBy: 'user-1',
    weActFor: null,
    fileName: null,
    mimeType: null,
    sizeBytes: null,
    textStatus: 'ok',
    textStatusMessage: null,
    pageStarts: null,
    ...overrides,
  }
}
