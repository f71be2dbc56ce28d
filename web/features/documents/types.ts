/** Web-side shapes of documents, derived from the generated API schema. Timestamps are ISO 8601. */
import type { components, operations } from '../../lib/api-schema'

/** A library card: `preview` is the first 150 characters of the content. */
export type DocumentCard = components['schemas']['DocumentCard']

/** A page of the library plus the org's distinct document types. */
export type DocumentList =
  operations['listDocuments']['responses'][200]['content']['application/json']

/** A full document. File fields are null for pasted text; `textStatusMessage` explains empty text. */
export type DocumentDetail = components['schemas']['Document']
