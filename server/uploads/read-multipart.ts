/**
 * The one reader of multipart uploads (issue 21, decision 41): one file part named `file`, at
 * most `maxBytes`, handed as it arrives to a FileSink (streamed to the blob store: spool-upload.ts
 * for routes that check every byte, objectFileSink for buckets, the CSV importer's own), and text fields checked by a zod object. Every way a body can be wrong ends as one of
 * three problems, the same on every upload route: 413 `file_too_large`, 400 `bad_upload` (not
 * multipart, damaged, too many parts) and 400 `file_missing`; fields failing their schema are a
 * 400 `validation_failed`. A field naming an app (http/app-reach.ts APP_FIELDS, whether the route reads
 * it or not) outside an app-bound credential's app is 404 `app_not_found` as it arrives, the one
 * check of every form (the guard checks queries and JSON bodies: route-roles.ts). When anything
 * fails after the sink stored the file, the sink discards it, so a refused upload leaves no file
 * behind.
 */
import type { FastifyRequest } from 'fastify'
import type { MultipartFile } from '@fastify/multipart'
import type { z } from 'zod'
import { AppError } from '../errors/app-error'
import { assertNamedAppsInReach } from '../http/app-reach'
import { toSingleLineText } from '../http/single-line-text'

/** Text fields a form may send besides its file (busboy counts them; the schema names them). */
const MAX_FIELDS = 10

/** A file part as it arrives. */
export interface IncomingFile {
  /** The bytes as they come; iterating fails with the 413 problem when the part passes maxBytes. */
  chunks: AsyncIterable<Uint8Array>
  /** The client's file name on one line (single-line-text.ts); 'untitled' when it sent none. */
  fileName: string
  /** The media type the client claimed: a hint only, the bytes decide (decision 34). */
  mimeType: string
}

/** Where a route keeps the file: `store` reads every chunk; `discard` undoes a store. */
export interface FileSink<T> {
  store(file: IncomingFile): Promise<T>
  discard(stored: T): Promise<void>
}

export interface UploadSpec<F extends z.ZodObject, T> {
  /** Largest accepted file, in bytes (one more is a 413). */
  maxBytes: number
  /** The text fields; every value arrives as a string. Unknown fields are ignored. */
  fields: F
  sink: FileSink<T>
  /** The file part's field name (default 'file'; the spec's tenant import names it 'zip_file'). */
  fileField?: string
  /** The `file_missing` problem's detail, e.g. 'Choose a CSV file to import (field "file").' */
  missing: string
}

/** The 413 problem of a file past `maxBytes`, the same on every upload route. */
export function fileTooLarge(maxBytes: number): AppError {
  return new AppError('file_too_large', `The file is larger than ${maxBytes / 1024 / 1024} MB.`)
}

/**
 * Reads the multipart body of `req`: the file through `spec.sink`, then the fields (sent before
 * or after the file) through `spec.fields`. Returns the sink's result and the parsed fields.
 * Throws the AppErrors named in the module comment, and whatever the sink throws itself.
 */
export async function readMultipart<F extends z.ZodObject, T>(
  req: FastifyRequest,
  spec: UploadSpec<F, T>,
): Promise<{ file: T; fields: z.infer<F> }> {
  const raw: Record<string, string> = {}
  let stored: { value: T } | undefined
  try {
    const parts = req.parts({
      limits: { fileSize: spec.maxBytes, files: 1, fields: MAX_FIELDS, parts: MAX_FIELDS + 1 },
    })
    for (;;) {
      const next = await parts.next().catch((error: unknown) => {
        throw asProblem(error, spec)
      })
      if (next.done) break
      const part = next.value
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value)
        // Sent before the file, another app is refused before a byte of it is stored.
        if (req.principal) assertNamedAppsInReach(req.principal, raw)
        continue
      }
      if (part.fieldname !== (spec.fileField ?? 'file')) {
        part.file.resume()
        throw new AppError('file_missing', spec.missing)
      }
      const file = {
        chunks: wholeFile(part.file, spec),
        fileName: toSingleLineText(part.filename) || 'untitled',
        mimeType: part.mimetype,
      }
      stored = { value: await spec.sink.store(file) }
    }
    if (!stored) throw new AppError('file_missing', spec.missing)
    const fields = spec.fields.safeParse(raw)
    if (!fields.success) {
      const issue = fields.error.issues[0]
      const detail = `${issue?.path.join('.') ?? 'field'}: ${issue?.message ?? 'invalid value'}`
      throw new AppError('validation_failed', detail)
    }
    return { file: stored.value, fields: fields.data }
  } catch (error) {
    if (stored) await spec.sink.discard(stored.value)
    throw error
  }
}

/**
 * The chunks of one file part, failing with the 413 problem when busboy cut the part at the size
 * limit. busboy only marks a cut file `truncated` and ends it: a reader that does not look would
 * keep the first `maxBytes` as if whole (issue 29), and @fastify/multipart's own check in
 * toBuffer() misses a limit that falls on a chunk boundary.
 */
async function* wholeFile(
  file: MultipartFile['file'],
  spec: { maxBytes: number; missing: string },
): AsyncGenerator<Uint8Array> {
  try {
    yield* file
  } catch (error) {
    throw asProblem(error, spec)
  }
  if (file.truncated) throw fileTooLarge(spec.maxBytes)
}

/** The problem for an error of @fastify/multipart or busboy (an AppError passes unchanged). */
function asProblem(error: unknown, spec: { maxBytes: number; fields?: z.ZodObject }): AppError {
  if (error instanceof AppError) return error
  const code = (error as { code?: unknown }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(spec.maxBytes)
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    const names = Object.keys(spec.fields?.shape ?? {})
    return new AppError(
      'bad_upload',
      `Send one file (field "file")${names.length > 0 ? ` with at most the fields ${names.join(', ')}` : ' and no other part'}.`,
    )
  }
  return new AppError(
    'bad_upload',
    'The upload could not be read. Send multipart/form-data with a "file" field.',
  )
}
