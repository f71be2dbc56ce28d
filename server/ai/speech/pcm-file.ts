/**
 * Decoded PCM read by byte range from its file, so that hours of audio (3 hours of 16 kHz
 * 16-bit mono are 345 MB) never sit in memory whole: the transcription holds only the pieces it
 * is recognising (decision 0034).
 */
import { open } from 'node:fs/promises'

/** PCM (16 kHz mono s16le) of `byteLength` bytes, read by byte range. */
export interface PcmSource {
  readonly byteLength: number
  /** The bytes [from, to), clipped to byteLength. */
  read(from: number, to: number): Promise<Buffer>
}

/** A PcmSource over an open file; close it when done. */
export interface PcmFile extends PcmSource {
  close(): Promise<void>
}

/**
 * Opens the PCM file `file`, of which at most the first `limitBytes` bytes are read (rounded down
 * to whole samples). Rejects with the file system's error when it cannot be opened.
 */
export async function openPcmFile(file: string, limitBytes = Infinity): Promise<PcmFile> {
  const handle = await open(file, 'r')
  const { size } = await handle.stat().catch(async (error: unknown) => {
    await handle.close()
    throw error
  })
  const byteLength = Math.min(size, Math.floor(limitBytes / 2) * 2)
  return {
    byteLength,
    async read(from, to) {
      const bytes = Buffer.alloc(Math.max(0, Math.min(to, byteLength) - from))
      let filled = 0
      while (filled < bytes.byteLength) {
        const { bytesRead } = await handle.read(
          bytes,
          filled,
          bytes.byteLength - filled,
          from + filled,
        )
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return bytes.subarray(0, filled)
    },
    close: () => handle.close(),
  }
}
