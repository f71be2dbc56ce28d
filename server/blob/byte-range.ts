/**
 * The one reading of a `Range` request header (RFC 9110 §14.1.2) for every file the API serves:
 * a single `bytes=a-b`, `bytes=a-` or suffix `bytes=-n` range. What the RFC lets a server ignore
 * (no header, another unit, several ranges, a malformed value) means the whole file; a
 * well-formed range that starts past the end is the 416 problem whose `Content-Range: bytes
 * *\/size` tells the size.
 */
import { AppError } from '../errors/app-error'
import type { ByteRange } from './blob-store'

/**
 * The bytes `header` asks of a file of `size` bytes (the end clipped to the last byte), or null
 * for the whole file. Throws the 416 AppError `range_not_satisfiable` when no byte of the range
 * exists.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '')
  if (!match) return null
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return null
  if (from !== '' && to !== '' && Number(to) < Number(from)) return null
  const start = from === '' ? Math.max(0, size - Number(to)) : Number(from)
  const end = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size || (from === '' && Number(to) === 0)) {
    throw new AppError('range_not_satisfiable', 'The requested range is outside the file.', {
      'content-range': `bytes */${size}`,
    })
  }
  return { start, end }
}
