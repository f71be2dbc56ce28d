/**
 * The safety check of an uploaded organisation archive (issue 27, decision 0063), run before
 * anything of it is written: yauzl reads the central directory, and every entry is refused
 * unless its name is a plain relative path (no `..`, no leading `/`, no drive letter, no
 * backslash, no control character, valid UTF-8), it is a regular file (no symlink, no
 * directory), not encrypted and not seen before; the archive is refused past MAX_ENTRIES
 * entries or `maxBytes` declared inflated bytes, and an entry whose declared inflation ratio
 * passes MAX_RATIO. manifest.json must be this format and version and list exactly the other
 * entries; then every entry is inflated (yauzl counts the bytes actually inflated against the
 * declared size, so a lying header stops at its declared size) and its SHA-256 compared with
 * the manifest's. Every refusal is an AppError: 413 `archive_too_large` for the size caps, 422
 * `archive_invalid` otherwise, naming the entry.
 */
import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { Entry, ZipFile } from 'yauzl'
import { AppError } from '../../errors/app-error'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ManifestSchema, type Manifest } from './archive-format'

/** Most entries an archive may hold (issue 27). */
export const MAX_ENTRIES = 1_000_000
/**
 * Largest declared inflation ratio of one entry. NDJSON of similar rows deflates about 10 to 1
 * and a text file rarely past 100 to 1; a stream of one repeated byte deflates past 1,000 to 1,
 * the shape of a decompression bomb. Entries under RATIO_FLOOR bytes are not judged by ratio.
 */
export const MAX_RATIO = 1000
const RATIO_FLOOR = 1024 * 1024
/** Largest manifest.json read (its checksums take about 100 bytes an entry). */
const MAX_MANIFEST_BYTES = 128 * 1024 * 1024

/** How checkArchive wants a ZipFile opened (yauzl's options). */
export const ARCHIVE_OPEN_OPTIONS = {
  lazyEntries: true,
  decodeStrings: false,
  validateEntrySizes: true,
} as const

/** The archive's entries as checked: name → entry, and its manifest. */
export interface CheckedArchive {
  manifest: Manifest
  entries: Map<string, Entry>
}

const invalid = (detail: string) => new AppError('archive_invalid', detail)
const tooLarge = (detail: string) => new AppError('archive_too_large', detail)

const utf8 = new TextDecoder('utf-8', { fatal: true })
/** Unix file-type bits of an entry made on Unix (`external attributes` >>> 16). */
const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const S_IFREG = 0o100000

/** The entry's name, or the reason it is refused. */
function entryName(entry: Entry): string {
  let name: string
  try {
    name = utf8.decode(entry.fileNameRaw)
  } catch {
    throw invalid('An entry name is not valid UTF-8.')
  }
  const shown = JSON.stringify(name.slice(0, 200))
  // eslint-disable-next-line no-control-regex -- control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid(`Entry ${shown} has a control character.`)
  if (name.includes('\\')) throw invalid(`Entry ${shown} has a backslash.`)
  if (name.startsWith('/')) throw invalid(`Entry ${shown} is an absolute path.`)
  if (/^[A-Za-z]:/.test(name)) throw invalid(`Entry ${shown} names a drive.`)
  if (name.split('/').some((part) => part === '..' || part === '.' || part === ''))
    throw invalid(`Entry ${shown} leaves its folder or is not a file.`)
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT
  if (mode === S_IFLNK) throw invalid(`Entry ${shown} is a symbolic link.`)
  if (mode !== 0 && mode !== S_IFREG) throw invalid(`Entry ${shown} is not a regular file.`)
  if (entry.isEncrypted()) throw invalid(`Entry ${shown} is encrypted.`)
  return name
}

/** Reads a whole (capped) entry. */
async function readEntry(zip: ZipFile, entry: Entry, cap: number): Promise<Buffer> {
  if (entry.uncompressedSize > cap) throw tooLarge('manifest.json is too large.')
  const chunks: Buffer[] = []
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The SHA-256 of a stream's bytes, lower-case hex. */
async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of stream) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/**
 * Checks `zip` (opened with ARCHIVE_OPEN_OPTIONS) against the module comment's rules, with at
 * most `limits.maxBytes` inflated bytes and `limits.maxEntries` (default MAX_ENTRIES) entries; resolves to its manifest and entries, or throws the refusal. Reads
 * every entry once to check its checksum; `signal` stops it between entries.
 */
export async function checkArchive(
  zip: ZipFile,
  limits: { maxBytes: number; maxEntries?: number },
  signal?: AbortSignal,
): Promise<CheckedArchive> {
  const { maxBytes, maxEntries = MAX_ENTRIES } = limits
  if (zip.entryCount > maxEntries)
    throw tooLarge(`The archive holds ${zip.entryCount} entries; at most ${maxEntries} are read.`)
  const entries = new Map<string, Entry>()
  let declared = 0
  for await (const entry of zip.eachEntry()) {
    const name = entryName(entry)
    if (entries.has(name)) throw invalid(`Entry ${JSON.stringify(name)} appears twice.`)
    declared += entry.uncompressedSize
    if (declared > maxBytes)
      throw tooLarge(`The archive inflates to more than ${maxBytes} bytes (IMPORT_MAX_BYTES).`)
    if (
      entry.uncompressedSize > RATIO_FLOOR &&
      entry.uncompressedSize > MAX_RATIO * Math.max(1, entry.compressedSize)
    )
      throw tooLarge(`Entry ${JSON.stringify(name)} inflates more than ${MAX_RATIO} to 1.`)
    entries.set(name, entry)
  }
  const manifestEntry = entries.get('manifest.json')
  if (!manifestEntry)
    throw invalid('The archive has no manifest.json: it is not a Lexdesk archive.')
  let manifest: Manifest
  try {
    const raw = JSON.parse(
      (await readEntry(zip, manifestEntry, MAX_MANIFEST_BYTES)).toString('utf8'),
    )
    const head = raw as { format?: unknown; version?: unknown }
    if (head.format !== ARCHIVE_FORMAT) throw invalid('The archive is not a Lexdesk archive.')
    if (head.version !== ARCHIVE_VERSION)
      throw invalid(
        `The archive's format version ${JSON.stringify(head.version)} is not one this server reads (${ARCHIVE_VERSION}).`,
      )
    manifest = ManifestSchema.parse(raw)
  } catch (error) {
    if (error instanceof AppError) throw error
    throw invalid('manifest.json is not a valid manifest.')
  }
  const listed = new Set(Object.keys(manifest.entries))
  for (const name of entries.keys())
    if (name !== 'manifest.json' && !listed.has(name))
      throw invalid(`Entry ${JSON.stringify(name)} is not in the manifest.`)
  for (const name of listed)
    if (!entries.has(name))
      throw invalid(`Entry ${JSON.stringify(name)} of the manifest is missing.`)
  for (const [name, entry] of entries) {
    if (name === 'manifest.json') continue
    signal?.throwIfAborted()
    let digest: string
    try {
      digest = await sha256(await zip.openReadStreamPromise(entry))
    } catch {
      throw invalid(`Entry ${JSON.stringify(name)} is damaged or larger than its header says.`)
    }
    if (digest !== manifest.entries[name])
      throw invalid(`Entry ${JSON.stringify(name)} does not match its checksum in the manifest.`)
  }
  return { manifest, entries }
}
