/**
 * The committed word-vector file of the local embedder (`word-vectors.bin`, written by
 * `npm run train:embeddings`): a little-endian uint32 byte length, a JSON header
 * `{ format: 1, dim, words: string[], frequencies: number[] }`, padding to 4 bytes, then one
 * float32 scale per word and the vectors quantised to int8 (value = int8 · scale / 127), row-major.
 * int8 keeps 20k × 128 vectors at 2.6 MB with cosines within ~0.01 of float32.
 */
import { readFileSync } from 'node:fs'

export interface WordVectorTable {
  dim: number
  /** word → row */
  index: Map<string, number>
  /** Corpus frequency of each row's word (count / tokens). */
  frequencies: Float32Array
  /** Row-major, rows × dim, rows L2-normalised (before quantisation). */
  vectors: Float32Array
}

interface Header {
  format: 1
  dim: number
  words: string[]
  frequencies: number[]
}

/** Serialises word vectors (rows already L2-normalised) in the format above. */
export function encodeWordVectors(
  words: readonly string[],
  frequencies: readonly number[],
  dim: number,
  vectors: Float32Array,
): Buffer {
  const header: Header = {
    format: 1,
    dim,
    words: [...words],
    frequencies: frequencies.map((f) => Number(f.toPrecision(3))),
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const headerBytes = 4 + json.length
  const pad = (4 - (headerBytes % 4)) % 4
  const scales = new Float32Array(words.length)
  const quantised = new Int8Array(words.length * dim)
  for (let r = 0; r < words.length; r += 1) {
    let max = 0
    for (let k = 0; k < dim; k += 1) max = Math.max(max, Math.abs(vectors[r * dim + k] ?? 0))
    scales[r] = max
    for (let k = 0; k < dim; k += 1)
      quantised[r * dim + k] = max > 0 ? Math.round(((vectors[r * dim + k] ?? 0) / max) * 127) : 0
  }
  const length = Buffer.alloc(4)
  length.writeUInt32LE(json.length)
  return Buffer.concat([
    length,
    json,
    Buffer.alloc(pad),
    Buffer.from(scales.buffer),
    Buffer.from(quantised.buffer),
  ])
}

/** Reads a word-vector file; throws on an unknown format. */
export function readWordVectors(path: string): WordVectorTable {
  const bytes = readFileSync(path)
  const jsonLength = bytes.readUInt32LE(0)
  const header = JSON.parse(bytes.subarray(4, 4 + jsonLength).toString('utf8')) as Header
  if (header.format !== 1) throw new Error(`unknown word-vector format in ${path}`)
  const rows = header.words.length
  const dim = header.dim
  let offset = 4 + jsonLength
  offset += (4 - (offset % 4)) % 4
  const scales = new Float32Array(
    bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + rows * 4),
  )
  offset += rows * 4
  const quantised = new Int8Array(
    bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + rows * dim),
  )
  const vectors = new Float32Array(rows * dim)
  for (let r = 0; r < rows; r += 1) {
    const scale = (scales[r] ?? 0) / 127
    for (let k = 0; k < dim; k += 1) vectors[r * dim + k] = (quantised[r * dim + k] ?? 0) * scale
  }
  return {
    dim,
    index: new Map(header.words.map((w, i) => [w, i])),
    frequencies: Float32Array.from(header.frequencies),
    vectors,
  }
}
