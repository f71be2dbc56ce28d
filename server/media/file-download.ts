/**
 * The headers of every file sent under /api (a recording's audio, a document's original, a CSV
 * export): whatever the bytes are, the browser must not run them on Lexdesk's origin (issue 29,
 * decision 0034). `X-Content-Type-Options: nosniff` stops it from guessing another type;
 * `Content-Security-Policy: default-src 'none'; sandbox` makes a page opened from the link an
 * opaque origin with no script, even if it were rendered as HTML; `Content-Disposition` is
 * `attachment` (saved, not shown) except for the allowed audio types, which play inline.
 */
import type { FastifyReply } from 'fastify'

/** The CSP of a downloaded file: load nothing, run nothing, opaque origin. */
export const FILE_CSP = "default-src 'none'; sandbox"

/** Media types shown inline: the audio formats recordings are stored as (sniff-audio.ts). */
export const INLINE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'audio/wav',
  'audio/webm',
  'audio/x-matroska',
  'audio/ogg',
  'audio/mp4',
  'audio/mpeg',
  'audio/flac',
])

/** RFC 5987 attr-char: what a `filename*` value may hold without percent-encoding. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/

/**
 * A Content-Disposition value (RFC 6266) naming `fileName`: an ASCII fallback `filename="…"` of
 * letters, digits, `.`, `_` and `-` only, and the full name as `filename*=UTF-8''…` (RFC 5987
 * percent-encoding). Path separators, quotes and control characters never reach either.
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what we remove
  const cleaned = fileName.replace(/[\u0000-\u001f\u007f/\\"]/g, '_').trim() || 'download'
  const ascii = cleaned.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_')
  const encoded = Array.from(new TextEncoder().encode(cleaned), (byte) => {
    const char = String.fromCharCode(byte)
    return byte < 0x80 && ATTR_CHAR.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }).join('')
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

/**
 * Sets the type and the safe headers of a file answer on `reply`: inline only when `inline` is
 * asked and `contentType` is one of INLINE_MEDIA_TYPES, attachment otherwise.
 */
export function fileHeaders(
  reply: FastifyReply,
  file: { contentType: string; fileName: string; inline?: boolean },
): FastifyReply {
  const bare = file.contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  const inline = file.inline === true && INLINE_MEDIA_TYPES.has(bare)
  return reply
    .header('content-type', file.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILE_CSP)
    .header(
      'content-disposition',
      contentDisposition(inline ? 'inline' : 'attachment', file.fileName),
    )
}
