/**
 * A DOCX with tracked changes from a comparison's merged stream (issue 46, decision 0146): one
 * paragraph per line, insertions as w:ins, deletions as w:del (w:delText), moves as w:moveFrom /
 * w:moveTo inside named move ranges (w:moveFromRangeStart/End, w:moveToRangeStart/End, ECMA-376
 * Part 1 §17.13.5), a paragraph mark tracked with the change that holds its line break, every
 * revision by author "Lexdesk". The package is written by hand (fflate zips it): the `docx`
 * package has insertions and deletions but no move markup, and one writer keeps every revision id
 * unique. Built from text: a base DOCX's styles are not kept (out of this slice).
 *
 * buildVerifiedRedline reads the package back (readRedline) and throws unless accepting every
 * change gives the revised text and rejecting every change gives the base, both as docxText.
 */
import { strToU8, zipSync } from 'fflate'
import type { Comparison, RedlineSegment } from './comparison'
import { readRedline } from './read-redline'

/** The revisions' author. */
export const REDLINE_AUTHOR = 'Lexdesk'

/** When to date the revisions (default: now). */
export interface RedlineOptions {
  date?: Date
}

/**
 * A text as a DOCX holds it: carriage returns dropped (a line ends at "\n"), and the characters
 * XML 1.0 cannot carry (C0 controls but tab and line feed, lone surrogates, U+FFFE/U+FFFF)
 * removed. Accept-all of a redline equals docxText(revised); reject-all equals docxText(base).
 */
export function docxText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what XML 1.0 cannot carry
    /\r|[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '',
  )
}

/** The redline did not read back as its texts: a bug of the writer, never served. */
export class RedlineMismatchError extends Error {
  constructor(side: 'accepted' | 'rejected', at: number) {
    super(`the redline's ${side} text differs from its version at character ${at}`)
    this.name = 'RedlineMismatchError'
  }
}

/**
 * The tracked-changes DOCX of `comparison`, verified: read back, accept-all equals
 * docxText(revised) and reject-all equals docxText(base), else RedlineMismatchError. Returns the
 * package's bytes. Time linear in the texts' length.
 */
export function buildVerifiedRedline(
  comparison: Comparison,
  options: RedlineOptions = {},
): Uint8Array {
  const docx = redlineDocx(comparison.segments, options)
  const { accepted, rejected } = readRedline(docx)
  const expectAccepted = docxText(comparison.revised)
  const expectRejected = docxText(comparison.base)
  if (accepted !== expectAccepted)
    throw new RedlineMismatchError('accepted', firstDifference(accepted, expectAccepted))
  if (rejected !== expectRejected)
    throw new RedlineMismatchError('rejected', firstDifference(rejected, expectRejected))
  return docx
}

function firstDifference(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1
  return i
}

/**
 * The DOCX package of `segments` (not verified; see buildVerifiedRedline). Deterministic for a
 * given date. Pure; never throws.
 */
export function redlineDocx(
  segments: readonly RedlineSegment[],
  options: RedlineOptions = {},
): Uint8Array {
  const date = (options.date ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const mtime = options.date ?? new Date()
  const files = {
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(ROOT_RELS),
    'word/_rels/document.xml.rels': strToU8(DOCUMENT_RELS),
    'word/settings.xml': strToU8(SETTINGS),
    'word/document.xml': strToU8(documentXml(segments, date)),
  }
  return zipSync(files, { level: 6, mtime })
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>' +
  '</Types>'

const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
  '</Relationships>'

const DOCUMENT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>' +
  '</Relationships>'

/** Track changes stays on, so the other side's edits to the redline are tracked too. */
const SETTINGS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  `<w:settings xmlns:w="${W}"><w:trackRevisions/></w:settings>`

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** The revision element of each kind of change ('equal' has none). */
const MARK: Record<RedlineSegment['kind'], string | null> = {
  equal: null,
  inserted: 'w:ins',
  deleted: 'w:del',
  moveFrom: 'w:moveFrom',
  moveTo: 'w:moveTo',
}

/** document.xml of `segments`, its revisions dated `date` (ISO 8601, UTC). */
function documentXml(segments: readonly RedlineSegment[], date: string): string {
  let nextId = 1
  const attrs = () => `w:id="${nextId++}" w:author="${REDLINE_AUTHOR}" w:date="${date}"`
  const body: string[] = []
  let paragraph: string[] = []
  /** Move ranges open in the text: "moveFrom:3" → range id, closed after the move's last piece. */
  const lastPiece = new Map<string, number>()
  segments.forEach((s, k) => {
    if (s.move !== undefined) lastPiece.set(`${s.kind}:${s.move}`, k)
  })
  const openRanges = new Map<string, number>()
  segments.forEach((segment, k) => {
    const mark = MARK[segment.kind]
    const key = segment.move !== undefined ? `${segment.kind}:${segment.move}` : null
    const isMove = segment.kind === 'moveFrom' || segment.kind === 'moveTo'
    if (key && isMove && !openRanges.has(key)) {
      const id = nextId++
      openRanges.set(key, id)
      paragraph.push(
        `<w:${segment.kind}RangeStart w:id="${id}" w:author="${REDLINE_AUTHOR}" w:date="${date}" w:name="move${segment.move}"/>`,
      )
    }
    const lines = docxText(segment.text).split('\n')
    lines.forEach((line, n) => {
      if (line !== '') {
        const run = runXml(line, segment.kind === 'deleted')
        paragraph.push(mark ? `<${mark} ${attrs()}>${run}</${mark}>` : run)
      }
      if (n < lines.length - 1) {
        // The line break is this paragraph's mark: tracked with its segment's change.
        const markXml = mark ? `<w:pPr><w:rPr><${mark} ${attrs()}/></w:rPr></w:pPr>` : ''
        body.push(`<w:p>${markXml}${paragraph.join('')}</w:p>`)
        paragraph = []
      }
    })
    if (key && isMove && lastPiece.get(key) === k) {
      paragraph.push(`<w:${segment.kind}RangeEnd w:id="${openRanges.get(key)}"/>`)
    }
  })
  body.push(`<w:p>${paragraph.join('')}</w:p>`)
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<w:document xmlns:w="${W}"><w:body>${body.join('')}<w:sectPr/></w:body></w:document>`
  )
}

/** One run of `text` (no line break): tabs as w:tab, the rest in w:t (w:delText when deleted). */
function runXml(text: string, deleted: boolean): string {
  const element = deleted ? 'w:delText' : 'w:t'
  const parts = text
    .split('\t')
    .map((piece) =>
      piece === '' ? '' : `<${element} xml:space="preserve">${escapeXml(piece)}</${element}>`,
    )
  return `<w:r>${parts.join('<w:tab/>')}</w:r>`
}
