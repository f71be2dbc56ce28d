/** The committed word vectors, read once per thread on first use (2.6 MB, ~50 ms). */
import { fileURLToPath } from 'node:url'
import { readWordVectors, type WordVectorTable } from './word-vector-file'

let table: WordVectorTable | undefined

export function wordTable(): WordVectorTable {
  table ??= readWordVectors(fileURLToPath(new URL('./word-vectors.bin', import.meta.url)))
  return table
}
