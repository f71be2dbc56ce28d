/**
 * Refuses ZIP bombs before a ZIP-based format (DOCX) is unpacked by its reader (mammoth, through
 * JSZip, inflates entries whole in memory). Reads the ZIP's central directory (PKWARE APPNOTE
 * 6.3.10, §4.3.12 and §4.3.16) and checks the uncompressed sizes it declares, then inflates each
 * entry with zlib, counting and discarding the output, because the declared sizes can lie.
 */
import { createInflateRaw } from 'node:zlib'
import { Readable } from 'node:stream'
import { AppError } from '../../errors/app-error'

/** Limits on what a ZIP may unpack to. */
export interface ZipExpansionLimits {
  /** Most bytes all entries together may inflate to. */
  maxTotalBytes: number
  /**
   * Most an entry may expand (inflated / compressed bytes) once past `ratioGraceBytes`; Apache
   * POI's ZipSecureFile refuses past 100 (its minimum inflate ratio 0.01) for the same reason.
   */
  maxRatio: number
  /** Inflated bytes of an entry before its ratio is judged (small entries compress freely). */
  ratioGraceBytes: number
}

/** 256 MiB in all, 100:1 per entry past 1 MiB: far above a real 25 MB DOCX (XML ~5-20:1). */
export const DOCX_EXPANSION_LIMITS: ZipExpansionLimits = {
  maxTotalBytes: 256 * 1024 * 1024,
  maxRatio: 100,
  ratioGraceBytes: 1024 * 1024,
}

interface Entry {
  method: number
  compressedSize: number
  declaredSize: number
  localHeaderOffset: number
}

const corrupt = () =>
  new AppError('corrupt_file', 'The DOCX file could not be read. It may be corrupt.')

const tooLarge = (limits: ZipExpansionLimits) =>
  new AppError(
    'unpacked_too_large',
    `The file expands to more than ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB (or more than ${limits.maxRatio} times its packed size) when unpacked, so it was not read. It may be damaged or built to exhaust the server.`,
  )

/** The central directory's entries; throws 400 when the archive's structure is unreadable. */
function centralDirectory(zip: Buffer): Entry[] {
  // End of central directory: 22 bytes plus a comment of at most 65,535 bytes, searched backwards.
  const floor = Math.max(0, zip.length - 22 - 0xffff)
  let end = -1
  for (let at = zip.length - 22; at >= floor; at -= 1) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) throw corrupt()
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const entries: Entry[] = []
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw corrupt()
    entries.push({
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      // 0xFFFFFFFF means a ZIP64 size (4 GiB or more, or claimed so): over any limit here.
      declaredSize: zip.readUInt32LE(at + 24),
      localHeaderOffset: zip.readUInt32LE(at + 42),
    })
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return entries
}

/** The packed bytes of `entry`, found through its local header (§4.3.7). */
function packedData(zip: Buffer, entry: Entry): Buffer {
  const at = entry.localHeaderOffset
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== 0x04034b50) throw corrupt()
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28)
  if (start + entry.compressedSize > zip.length) throw corrupt()
  return zip.subarray(start, start + entry.compressedSize)
}

/**
 * Checks that the ZIP `bytes` unpacks within `limits`: first the sizes its directory declares,
 * then the bytes each deflated entry really inflates to (output discarded as it comes, so this
 * holds at most a few chunks). Throws 413 `unpacked_too_large` past a limit and 400
 * `corrupt_file` when the archive cannot be read.
 */
export async function checkZipExpansion(
  bytes: Uint8Array,
  limits: ZipExpansionLimits,
): Promise<void> {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries = centralDirectory(zip)
  const declared = entries.reduce((sum, e) => sum + e.declaredSize, 0)
  const overRatio = (inflated: number, packed: number) =>
    inflated > limits.ratioGraceBytes && inflated > limits.maxRatio * Math.max(1, packed)
  if (
    declared > limits.maxTotalBytes ||
    entries.some((e) => overRatio(e.declaredSize, e.compressedSize))
  )
    throw tooLarge(limits)
  let total = 0
  for (const entry of entries) {
    const packed = packedData(zip, entry)
    if (entry.method === 0) total += packed.length
    else if (entry.method !== 8) throw corrupt()
    else {
      let inflated = 0
      try {
        for await (const chunk of Readable.from([packed]).pipe(createInflateRaw())) {
          inflated += (chunk as Buffer).length
          total += (chunk as Buffer).length
          if (total > limits.maxTotalBytes || overRatio(inflated, packed.length))
            throw tooLarge(limits)
        }
      } catch (error) {
        if (error instanceof AppError) throw error
        throw corrupt()
      }
    }
    if (total > limits.maxTotalBytes) throw tooLarge(limits)
  }
}
