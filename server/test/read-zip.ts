/**
 * Reads a whole (small) ZIP in memory for tests, with yauzl: every entry's name and bytes, in
 * the archive's order. Tests compare archives entry by entry with it; the server's own reader
 * streams and checks far more (features/archives).
 */
import yauzl from 'yauzl'

/** The entries of `zip`, name → bytes, in archive order. */
export function readZip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error)
      const entries = new Map<string, Buffer>()
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError)
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('error', reject)
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks))
            file.readEntry()
          })
        })
      })
      file.on('end', () => resolve(entries))
      file.on('error', reject)
      file.readEntry()
    })
  })
}

/** The lines of an NDJSON entry, parsed. */
export function ndjson(bytes: Buffer | undefined): Record<string, unknown>[] {
  if (!bytes) throw new Error('no such entry')
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}
