/**
 * Reads a tracked-changes DOCX back to the two texts it stands for (decision 0146): what
 * accepting every change gives and what rejecting every change gives. Paragraphs are joined by
 * "\n"; a paragraph whose mark is deleted (w:del, w:moveFrom in its w:pPr/w:rPr) runs into the
 * next one on accepting, one whose mark is inserted (w:ins, w:moveTo) on rejecting, as Word does.
 * Text is w:t and w:delText, w:tab is a tab; runs inside w:ins/w:moveTo count only when
 * accepting, inside w:del/w:moveFrom only when rejecting. It reads the body of
 * word/document.xml only (no headers, footers or notes: redlines from text have none).
 */
import { strFromU8, unzipSync } from 'fflate'

/** The accept-all and reject-all texts of a DOCX's body. */
export interface RedlineTexts {
  accepted: string
  rejected: string
}

const TAG =
  /<(\/?)([\w:]+)((?:\s+[\w:]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->|([^<]+)/g

const ACCEPT_ONLY = new Set(['w:ins', 'w:moveTo'])
const REJECT_ONLY = new Set(['w:del', 'w:moveFrom'])

/**
 * The texts of `docx` (the package's bytes). Throws Error when the package has no
 * word/document.xml or is not a ZIP. Linear in the document's size.
 */
export function readRedline(docx: Uint8Array): RedlineTexts {
  const files = unzipSync(docx, { filter: (file) => file.name === 'word/document.xml' })
  const xml = files['word/document.xml']
  if (!xml) throw new Error('not a DOCX: no word/document.xml')
  return redlineTextsOfXml(strFromU8(xml))
}

interface Paragraph {
  accepted: string
  rejected: string
  /** The paragraph mark's revision, if any. */
  mark: 'accept-only' | 'reject-only' | null
}

/** The texts of a document.xml (see readRedline). */
export function redlineTextsOfXml(xml: string): RedlineTexts {
  const paragraphs: Paragraph[] = []
  const stack: string[] = []
  let current: Paragraph | null = null
  let inText = false
  for (const m of xml.matchAll(TAG)) {
    const [, closing, name, , selfClosing, text] = m
    if (text !== undefined) {
      if (inText && current) {
        const value = decodeEntities(text)
        const acceptOnly = stack.some((n) => ACCEPT_ONLY.has(n))
        const rejectOnly = stack.some((n) => REJECT_ONLY.has(n))
        if (!rejectOnly) current.accepted += value
        if (!acceptOnly) current.rejected += value
      }
      continue
    }
    if (!name) continue
    if (closing) {
      const at = stack.lastIndexOf(name)
      if (at >= 0) stack.length = at
      if (name === 'w:t' || name === 'w:delText') inText = false
      if (name === 'w:p' && current) {
        paragraphs.push(current)
        current = null
      }
      continue
    }
    if (name === 'w:p') {
      current = { accepted: '', rejected: '', mark: null }
      if (selfClosing) {
        paragraphs.push(current)
        current = null
      }
      continue
    }
    const inMarkProperties = stack.includes('w:pPr') && stack.includes('w:rPr')
    if (inMarkProperties && current && (ACCEPT_ONLY.has(name) || REJECT_ONLY.has(name))) {
      current.mark = ACCEPT_ONLY.has(name) ? 'accept-only' : 'reject-only'
    } else if (name === 'w:tab' && current && stack.includes('w:r')) {
      const acceptOnly = stack.some((n) => ACCEPT_ONLY.has(n))
      const rejectOnly = stack.some((n) => REJECT_ONLY.has(n))
      if (!rejectOnly) current.accepted += '\t'
      if (!acceptOnly) current.rejected += '\t'
    }
    if (selfClosing) continue
    stack.push(name)
    if (name === 'w:t' || name === 'w:delText') inText = true
  }
  return {
    accepted: joinParagraphs(paragraphs, 'accepted', 'reject-only'),
    rejected: joinParagraphs(paragraphs, 'rejected', 'accept-only'),
  }
}

function joinParagraphs(
  paragraphs: readonly Paragraph[],
  side: 'accepted' | 'rejected',
  vanishes: Paragraph['mark'],
): string {
  let out = ''
  paragraphs.forEach((p, k) => {
    out += p[side]
    if (k < paragraphs.length - 1 && p.mark !== vanishes) out += '\n'
  })
  return out
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi,
    (all, hex, dec, named) => {
      if (hex) return String.fromCodePoint(parseInt(hex, 16))
      if (dec) return String.fromCodePoint(parseInt(dec, 10))
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[named as string] ?? all
    },
  )
}
