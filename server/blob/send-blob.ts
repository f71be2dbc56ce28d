/**
 * Sends one stored object as the answer to a GET, streamed from the blob store (never read whole),
 * with the safe file headers (file-download.ts: nosniff, sandbox CSP, attachment unless inline
 * audio), `Accept-Ranges: bytes`, and a single requested range as 206 Partial Content with
 * `Content-Range` (byte-range.ts; 416 when unsatisfiable), so audio seeks and large PDFs stream.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppError } from '../errors/app-error'
import type { BlobStore } from './blob-store'
import { parseByteRange } from './byte-range'
import { fileHeaders } from '../media/file-download'

export interface BlobAnswer {
  key: string
  fileName: string
  /** The media type to send; the stored one when absent. */
  contentType?: string
  /** Show inline when the type allows it (file-download.ts), else attachment. */
  inline?: boolean
  /** The problem when the object is missing (e.g. a 404 `file_not_found`). */
  missing: () => AppError
}

/** Streams `answer.key` of `blobs` on `reply` as described in the module comment. */
export async function sendBlob(
  req: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  answer: BlobAnswer,
): Promise<FastifyReply> {
  const head = await blobs.head(answer.key)
  if (!head) throw answer.missing()
  const range = parseByteRange(req.headers.range, head.size)
  const opened = await blobs.getStream(answer.key, range ?? undefined)
  if (!opened) throw answer.missing()
  fileHeaders(reply, {
    contentType: answer.contentType ?? head.contentType,
    fileName: answer.fileName,
    inline: answer.inline,
  }).header('accept-ranges', 'bytes')
  if (!range) return reply.header('content-length', head.size).send(opened.stream)
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${head.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(opened.stream)
}
