/**
 * Opens a ZIP kept in the blob store with yauzl without reading it whole: yauzl asks for byte
 * ranges (the central directory at the end, then each entry), and each range is one ranged
 * `getStream` of the store, so an archive of any size is read with a few buffers in memory.
 */
import { PassThrough, type Readable } from 'node:stream'
import yauzl, { type ZipFile } from 'yauzl'
import type { BlobStore } from '../../blob/blob-store'
import { AppError } from '../../errors/app-error'
import { ARCHIVE_OPEN_OPTIONS } from './check-archive'

/** yauzl's reader over one stored object. */
class BlobReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly blobs: BlobStore,
    private readonly key: string,
  ) {
    super()
  }

  /** Bytes `start` to `end` (exclusive), as yauzl asks; an empty range is an empty stream. */
  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough()
    if (end <= start) {
      out.end()
      return out
    }
    this.blobs
      .getStream(this.key, { start, end: end - 1 })
      .then((opened) => {
        if (!opened) throw new Error(`blob ${this.key} is gone`)
        opened.stream.on('error', (error) => out.destroy(error))
        opened.stream.pipe(out)
      })
      .catch((error: Error) => out.destroy(error))
    return out
  }
}

/**
 * The ZIP stored under `key`, opened with check-archive's options (the caller closes it); 404 `file_not_found` when
 * the object is gone, 422 `archive_invalid` when it is not a ZIP.
 */
export async function openBlobZip(blobs: BlobStore, key: string): Promise<ZipFile> {
  const head = await blobs.head(key)
  if (!head) throw new AppError('file_not_found', 'The uploaded archive is gone; upload it again.')
  try {
    return await yauzl.fromRandomAccessReaderPromise(
      new BlobReader(blobs, key),
      head.size,
      // Kept open past the last entry: the check reads the manifest and the import every
      // table after walking the directory; the caller closes it.
      { ...ARCHIVE_OPEN_OPTIONS, autoClose: false },
    )
  } catch {
    throw new AppError('archive_invalid', 'The file is not a ZIP archive.')
  }
}
