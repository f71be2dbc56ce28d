/**
 * Decompression bombs built in code for tests and benchmarks: small files that expand hugely when
 * read. A DOCX whose document.xml inflates to N MiB (with honest or lying sizes in its ZIP
 * headers) and a PDF whose image stream inflates to N MiB; makeCompressedBombPdf (sample-files.ts)
 * is the PDF whose content stream does. Written with Node's zlib, not a ZIP library, because the
 * lying headers are the point.
 */
import { crc32, deflateRawSync, deflateSync } from 'node:zlib'
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib'

const MIB = 1024 * 1024

/** `mib` MiB made of `unit` repeated (the last copy cut), e.g. XML text that compresses ~1000:1. */
function repeated(unit: string, mib: number): Buffer {
  const bytes = Buffer.alloc(mib * MIB)
  bytes.fill(unit)
  return bytes
}

interface ZipEntry {
  name: string
  data: Buffer
  /** Uncompressed size written in the headers; the true size when absent. */
  claimedSize?: number
}

/** A ZIP archive (deflated entries, no data descriptors) written byte by byte after APPNOTE 6.3. */
function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const packed = deflateRawSync(entry.data, { level: 9 })
    const crc = crc32(entry.data)
    const size = entry.claimedSize ?? entry.data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed
    local.writeUInt16LE(0x0800, 6) // UTF-8 names
    local.writeUInt16LE(8, 8) // deflate
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // version made by
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, packed)
    centrals.push(central, name)
    offset += local.length + name.length + packed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** The package parts a DOCX needs besides word/document.xml (ECMA-376 part 2, Open Packaging). */
const DOCX_PARTS: ZipEntry[] = [
  {
    name: '[Content_Types].xml',
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
  },
  {
    name: '_rels/.rels',
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
  },
]

/**
 * A DOCX (about 1/1000 of its inflated size) whose word/document.xml is a valid document with one
 * paragraph of `inflatedMib` MiB of text. `lie: true` writes 1 KiB as the entry's uncompressed size
 * in both ZIP headers, so only counting the inflated bytes finds the bomb.
 */
export function makeZipBombDocx(inflatedMib: number, options: { lie?: boolean } = {}): Uint8Array {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  )
  const tail = Buffer.from('</w:t></w:r></w:p></w:body></w:document>')
  const document = Buffer.concat([head, repeated('bomb ', inflatedMib), tail])
  const main = { name: 'word/document.xml', data: document }
  return new Uint8Array(zip([...DOCX_PARTS, options.lie ? { ...main, claimedSize: 1024 } : main]))
}

/**
 * A one-page PDF drawing one RGB image whose Flate-compressed pixels inflate to about
 * `inflatedMib` MiB (a square image of that many bytes): a bomb for a reader that decodes images.
 */
export async function makeImageBombPdf(inflatedMib: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([612, 792])
  page.drawText('Image', { x: 40, y: 750, size: 10, font })
  const side = Math.floor(Math.sqrt((inflatedMib * MIB) / 3))
  const pixels = Buffer.alloc(side * side * 3, 0xff)
  const image = pdf.context.stream(deflateSync(pixels, { level: 9 }), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: side,
    Height: side,
    ColorSpace: 'DeviceRGB',
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
  })
  const ref = pdf.context.register(image)
  page.node.setXObject(PDFName.of('Bomb'), ref)
  const contents = pdf.context.stream(`q ${612} 0 0 ${792} 0 0 cm /Bomb Do Q`)
  page.node.addContentStream(pdf.context.register(contents))
  return pdf.save()
}
