/**
 * Sends stored audio, honouring one `Range: bytes=a-b` (206 Partial Content, RFC 9110 §14) so
 * that audio elements can seek; an unsatisfiable range is a 416 problem (AppError
 * `range_not_satisfiable`) whose Content-Range header gives the size.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../http/app-error'

export function sendAudio(
  req: FastifyRequest,
  reply: FastifyReply,
  audio: { data: Uint8Array; contentType: string },
) {
  const size = audio.data.byteLength
  reply.header('accept-ranges', 'bytes').type(audio.contentType)
  const match = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')
  if (!match || (match[1] === '' && match[2] === '')) return reply.send(Buffer.from(audio.data))
  const [, from = '', to = ''] = match
  const start = from === '' ? Math.max(0, size - Number(to)) : Number(from)
  const end = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size || start > end) {
    throw new AppError(
      'range_not_satisfiable',
      416,
      'The requested range is outside the recording.',
      { 'content-range': `bytes */${size}` },
    )
  }
  return reply
    .status(206)
    .header('content-range', `bytes ${start}-${end}/${size}`)
    .send(Buffer.from(audio.data.subarray(start, end + 1)))
}
