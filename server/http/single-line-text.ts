/**
 * Cleaning of short, single-line text a person reads (titles, file names, search terms).
 * Control characters (Unicode category Cc: C0 U+0000–U+001F, DEL, C1 U+0080–U+009F) have no
 * place in them, PostgreSQL text cannot hold NUL, and the bidirectional embeddings, overrides and
 * isolates U+202A–U+202E and U+2066–U+2069 let "invoice‮fdp.exe" display as "invoiceexe.pdf"
 * (Unicode TR #36 §2.1, "Trojan Source", CVE-2021-42574). Lexdesk removes them rather than
 * refusing the request: the text usually comes from a clipboard or a file system, not a typo.
 */

const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g
const INVISIBLE_CONTROLS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu
/** A UTF-16 surrogate without its pair: not a character, and refused by PostgreSQL's JSON. */
const UNPAIRED_SURROGATES =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * `text` as one line: line breaks and tabs become a space, other control and bidirectional
 * formatting characters and unpaired surrogates are removed, runs of spaces collapse and the ends are trimmed.
 * Example: 'Acme\u0000 NDA\u202E\r\nv2' → 'Acme NDA v2'. May return ''.
 */
export function toSingleLineText(text: string): string {
  return text
    .replace(LINE_BREAKS, ' ')
    .replace(INVISIBLE_CONTROLS, '')
    .replace(UNPAIRED_SURROGATES, '')
    .replace(/ {2,}/g, ' ')
    .trim()
}
