/**
 * Multipart upload through XMLHttpRequest, because fetch cannot report upload progress.
 * Same-origin, so the session cookie goes along.
 */
import { ApiError } from '../../lib/api'
import type { DocumentDetail } from './types'

interface UploadInput {
  file: File
  title: string
  documentType: string
  /** The app to file it under; absent = organisation-wide. */
  appId?: string
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * POSTs `file`, `title`, `documentType` and `appId` (when given) to /api/v1/orgs/{orgId}/documents. `onProgress` gets
 * the sent fraction (0–1). Resolves to the created document (201); rejects with `ApiError`
 * carrying the problem detail (413 too large, 415 unsupported, 400 corrupt), or with an Error on a
 * network failure. Aborting `signal` aborts the request.
 */
export function uploadDocumentFile(
  orgId: string,
  input: UploadInput,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<DocumentDetail> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/api/v1/orgs/${encodeURIComponent(orgId)}/documents`)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = parseJson(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300 && body !== undefined) {
        resolve(body as DocumentDetail)
      } else {
        const problem = body !== null && typeof body === 'object' ? body : undefined
        reject(new ApiError(xhr.status, problem, xhr.statusText))
      }
    }
    xhr.onerror = () => reject(new Error('Upload failed: the server could not be reached.'))
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })

    const form = new FormData()
    // Text fields first: the server reads the multipart stream in order.
    form.append('title', input.title)
    form.append('documentType', input.documentType)
    if (input.appId) form.append('appId', input.appId)
    form.append('file', input.file, input.file.name)
    xhr.send(form)
  })
}
