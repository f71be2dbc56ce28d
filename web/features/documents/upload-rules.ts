/** Client-side checks of an upload, mirroring the server's limits so users learn early. */

/** 25 MB upload limit (the uploadDocument operation), counted in binary megabytes like the server's. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024

/** Value of the file input's `accept`: PDF, DOCX and plain text. */
export const ACCEPTED_UPLOAD_TYPES =
  '.pdf,.docx,.txt,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/plain'

const ACCEPTED_EXTENSION = /\.(pdf|docx|txt)$/i
const ACCEPTED_MIME = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
])

/**
 * Why `file` cannot be uploaded (a message fit for a toast), or null when it may be sent. Its size
 * is checked by uploadWithProgress against MAX_UPLOAD_BYTES, as every upload's is. The server
 * still sniffs the bytes and answers 415/400 for disguised or corrupt files.
 */
export function uploadProblem(file: File): string | null {
  if (!ACCEPTED_EXTENSION.test(file.name) && !ACCEPTED_MIME.has(file.type)) {
    return `${file.name} is not a PDF, DOCX or plain-text file.`
  }
  if (file.size === 0) return `${file.name} is empty.`
  return null
}
