/**
 * Sends a recording's audio with the safe file headers (http/file-download.ts), honouring one
 * `Range: bytes=a-b` (206 Partial Content, RFC 9110 §14) so that audio elements can seek; an
 * unsatisfiable range is a 416 problem (AppError `range_not_satisfiable`) whose Content-Range
 * header gives the size. The media type is sniffed from the bytes again, not read from storage:
 * a recording stored before the allow-list with a claimed type such as text/html is sent as an
 * `application/octet-stream` attachment instead.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../errors/app-error'
import { fileHeaders } from '../../http/file-download'
import { sniffAudio } from '../../ai/speech/sniff-audio'

export async function sendAudio(
  req: FastifyRequest,
  reply: FastifyReply,
  audio: { id: string; data: Uint8Array },
) {
  const format = await sniffAudio(audio.data).catch(() => undefined)
  fileHeaders(reply, {
    contentType: format?.mime ?? 'application/octet-stream',
    fileName: `recording-${audio.id}.${format?.ext ?? 'bin'}`,
    inline: true,
  })
  const size = audio.data.byteLength
  reply.header('accept-ranges', 'bytes')
  const match = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')
  if (!match || (match[1] === '' && match[2] === '')) return reply.send(Buffer.from(audio.data))
  const [, from = '', to = ''] = match
  const start = from === '' ? Math.max(0, size - Number(to)) : Number(from)
  const end = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size || start > end) {
    throw new AppError('range_not_satisfiable', 'The requested range is outside the recording.', {
      'content-range': `bytes */${size}`,
    })
  }
  return reply
    .status(206)
    .header('content-range', `bytes ${start}-${end}/${size}`)
    .send(Buffer.from(audio.data.subarray(start, end + 1)))
}
