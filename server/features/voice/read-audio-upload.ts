/** Reads a multipart recording upload: the `file` part (size-limited) and an optional `appId` field before it. */
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../errors/app-error'

/** Upload limit of one recording: 100 MB (an hour of browser Opus is about 15 MB). */
export const MAX_RECORDING_BYTES = 100 * 1024 * 1024

function tooLarge(): AppError {
  return new AppError('file_too_large', 'The recording is larger than 100 MB.')
}

/** The uploaded audio (its claimed media type is ignored: the bytes decide); 400 `file_missing` without one, 413 past MAX_RECORDING_BYTES. */
export async function readAudioUpload(
  req: FastifyRequest,
): Promise<{ bytes: Uint8Array; appId?: string }> {
  try {
    const part = await req.file({ limits: { fileSize: MAX_RECORDING_BYTES } })
    if (!part || part.fieldname !== 'file')
      throw new AppError('file_missing', 'Send the recording as the multipart field "file".')
    // Text fields sent before the file arrive with it.
    const appField = part.fields.appId
    const appId =
      appField && !Array.isArray(appField) && appField.type === 'field'
        ? String(appField.value)
        : undefined
    const bytes = new Uint8Array(await part.toBuffer())
    // toBuffer() misses the limit when it falls on a chunk boundary: busboy then marks the file
    // truncated without handing on another chunk, and the first 100 MiB would be kept.
    if (part.file.truncated) throw tooLarge()
    return { bytes, appId }
  } catch (error) {
    if (error instanceof AppError) throw error
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge()
    throw new AppError(
      'bad_upload',
      'The upload could not be read. Send multipart/form-data with a "file" field.',
    )
  }
}
