import { createRequire } from 'node:module'
import { strFromU8, unzipSync } from 'fflate'
import mammoth from 'mammoth'
import { describe, expect, it } from 'vitest'
import { compareTexts } from './compare-texts'
import type { Comparison } from './comparison'
import { readRedline } from './read-redline'
import { buildVerifiedRedline, docxText, RedlineMismatchError } from './redline-docx'

/** The little of the W3C DOM the oracle reads (jsdom ships no types). */
interface XmlElement {
  localName: string
  children: ArrayLike<XmlElement>
  textContent: string | null
  getElementsByTagNameNS(ns: string, name: string): ArrayLike<XmlElement>
}
interface XmlParser {
  parseFromString(xml: string, type: 'application/xml'): XmlElement
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { DOMParser: new () => XmlParser } }
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
const DATE = new Date('2026-03-01T09:00:00Z')

/**
 * The test oracle, independent of readRedline: jsdom's XML parser walks word/document.xml's
 * paragraphs; accept drops w:del and w:moveFrom content and joins a paragraph whose mark is
 * deleted or moved away with the next; reject does the same for w:ins and w:moveTo.
 */
function oracle(docx: Uint8Array): { accepted: string; rejected: string } {
  const xml = strFromU8(unzipSync(docx)['word/document.xml']!)
  const doc = new new JSDOM('').window.DOMParser().parseFromString(xml, 'application/xml')
  const paragraphs = Array.from(doc.getElementsByTagNameNS(W, 'p'))
  const side = (drop: string[], markJoins: string[]) =>
    paragraphs
      .map((p, k) => {
        let text = ''
        const walk = (node: XmlElement) => {
          for (const child of Array.from(node.children)) {
            if (child.localName === 'pPr' || drop.includes(child.localName)) continue
            if (child.localName === 't' || child.localName === 'delText')
              text += child.textContent ?? ''
            else if (child.localName === 'tab') text += '\t'
            else walk(child)
          }
        }
        walk(p)
        const markProps = p.getElementsByTagNameNS(W, 'pPr')[0]?.getElementsByTagNameNS(W, 'rPr')[0]
        const joins = Array.from(markProps?.children ?? []).some((c) =>
          markJoins.includes(c.localName),
        )
        return text + (k < paragraphs.length - 1 && !joins ? '\n' : '')
      })
      .join('')
  return {
    accepted: side(['del', 'moveFrom'], ['del', 'moveFrom']),
    rejected: side(['ins', 'moveTo'], ['ins', 'moveTo']),
  }
}

const BASE = [
  'SUPPLY AGREEMENT',
  '',
  '1. Supply. The Supplier shall deliver the Products to the Buyer at the agreed point.',
  '',
  '2. Price. The Buyer shall pay each invoice within thirty (30) days & without set-off.',
  '',
  '3. Warranty. The Supplier warrants the Products for twelve months <after> delivery.',
  '',
  '4. Assignment. The Buyer may assign this Agreement to an affiliate.',
  '',
  '5. Notices.\tNotices shall be in writing and delivered by hand or by courier.',
  '',
].join('\r\n')

const REVISED = [
  'SUPPLY AGREEMENT',
  '',
  '1. Supply. The Supplier shall deliver the Products to the Buyer at the agreed point.',
  '',
  '2. Warranty. The Supplier warrants the Products for twelve months <after> delivery.',
  '',
  '3. Price. The Buyer shall pay each invoice within sixty (60) days & without set-off.',
  '',
  '4. Notices.\tNotices shall be in writing and delivered by hand, by courier or by e-mail.',
  '',
  '5. Audit. The Buyer may audit the Supplier’s records once a year on ten days notice.',
  '',
].join('\r\n')

describe('buildVerifiedRedline', () => {
  it('writes a DOCX whose accept-all is the revised text and reject-all the base (read by an independent parser)', () => {
    const comparison = compareTexts(BASE, REVISED)
    const docx = buildVerifiedRedline(comparison, { date: DATE })
    const read = oracle(docx)
    expect(read.accepted).toBe(docxText(REVISED))
    expect(read.rejected).toBe(docxText(BASE))
    expect(readRedline(docx)).toEqual(read)
    const xml = strFromU8(unzipSync(docx)['word/document.xml']!)
    for (const mark of [
      'w:ins',
      'w:del',
      'w:moveFrom',
      'w:moveTo',
      'w:moveFromRangeStart',
      'w:moveToRangeEnd',
    ])
      expect(xml).toContain(`<${mark} `)
    expect(xml).toContain('w:author="Lexdesk"')
    expect(xml).toContain('w:date="2026-03-01T09:00:00Z"')
    const ids = [
      ...xml.matchAll(
        /<w:(?:ins|del|moveFrom|moveTo|moveFromRangeStart|moveToRangeStart) w:id="(\d+)"/g,
      ),
    ].map((m) => m[1])
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('opens in a third-party DOCX reader (mammoth) without a warning, which reads the accepted text', async () => {
    const docx = buildVerifiedRedline(compareTexts(BASE, REVISED), { date: DATE })
    const read = await mammoth.extractRawText({ buffer: Buffer.from(docx) })
    expect(read.messages).toEqual([])
    const words = (text: string) => text.split(/\s+/).filter((w) => w !== '')
    expect(words(read.value)).toEqual(words(REVISED))
  })

  it('round-trips empty texts and characters XML cannot carry', () => {
    for (const [a, b] of [
      ['', ''],
      ['', REVISED],
      [BASE, ''],
      ['a\u0001b\tc\n\n', 'a\u0002b c\u0000\n'],
    ] as const) {
      const read = oracle(buildVerifiedRedline(compareTexts(a, b), { date: DATE }))
      expect(read).toEqual({ accepted: docxText(b), rejected: docxText(a) })
    }
  })

  it('refuses a redline that does not read back as its texts', () => {
    const comparison: Comparison = {
      ...compareTexts(BASE, REVISED),
      revised: `${REVISED}tampered`,
    }
    expect(() => buildVerifiedRedline(comparison, { date: DATE })).toThrow(RedlineMismatchError)
  })
})
