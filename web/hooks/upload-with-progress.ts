/**
 * The one uploader of the web app (issue 21): a multipart POST through XMLHttpRequest, because
 * fetch cannot report upload progress. Same-origin, so the session cookie goes along.
 */
import { ApiError } from '../lib/api'
import type { operations } from '../lib/api-schema'

/** The API operations that take a multipart file (server/uploads/read-multipart.ts). */
export type UploadOperation =
  'uploadDocument' | 'uploadRecording' | 'importEntities' | 'uploadObject' | 'importOrganization'

/** The JSON body of an upload operation's success answer (201 or 202). */
export type UploadAnswer<Op extends UploadOperation> = {
  [S in keyof operations[Op]['responses']]: S extends 201 | 202
    ? operations[Op]['responses'][S] extends { content: { 'application/json': infer Body } }
      ? Body
      : never
    : never
}[keyof operations[Op]['responses']]

export interface UploadRequest {
  /** The path with its `/api/v1` prefix and any query, e.g. `/api/v1/orgs/o1/documents`. */
  url: string
  /** Sent as the multipart field `fileField`. */
  file: Blob
  /** The file's multipart field: `file`, unless the operation names it otherwise (`zip_file`). */
  fileField?: string
  /** The file name sent with it, and named in the too-large message. */
  fileName: string
  /** Text fields, sent before the file; undefined values are left out. */
  fields?: Record<string, string | undefined>
  /** The operation's file limit in bytes (the server's): a larger file is refused here, unsent. */
  maxBytes: number
  /** The fraction sent so far, 0–1. */
  onProgress?: (fraction: number) => void
  /** Aborting it aborts the request (rejects with an AbortError DOMException). */
  signal?: AbortSignal
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * POSTs `request.file` and its fields to `request.url` as the operation `operation`. Resolves to
 * the answer's body, typed from the OpenAPI document. Rejects with an `ApiError` for every
 * refusal, its `code` from the server's problem: `file_too_large` (413) before any byte is sent
 * when the file is over `maxBytes`, as the server would answer; status 0 without a code when the
 * server could not be reached. An aborted upload rejects with a DOMException named AbortError.
 */
export function uploadWithProgress<Op extends UploadOperation>(
  operation: Op,
  request: UploadRequest,
): Promise<UploadAnswer<Op>> {
  if (request.file.size > request.maxBytes) {
    const megabytes = request.maxBytes / 1024 / 1024
    return Promise.reject(
      new ApiError(413, {
        code: 'file_too_large',
        detail: `${request.fileName} is larger than ${megabytes} MB.`,
      }),
    )
  }
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', request.url)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        request.onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = parseJson(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300 && body !== undefined) {
        resolve(body as UploadAnswer<Op>)
      } else {
        const problem = body !== null && typeof body === 'object' ? body : undefined
        reject(new ApiError(xhr.status, problem, xhr.statusText))
      }
    }
    xhr.onerror = () =>
      reject(new ApiError(0, { detail: `The upload failed: the server could not be reached.` }))
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true })

    const form = new FormData()
    // Text fields first, so a server reading the stream in order has them before the file.
    for (const [name, value] of Object.entries(request.fields ?? {}))
      if (value !== undefined) form.append(name, value)
    form.append(request.fileField ?? 'file', request.file, request.fileName)
    xhr.send(form)
  })
}
