/**
 * Object storage (issue 24): a 200 MB object streamed into each blob driver as an upload would be
 * (64 KiB chunks from a source that never holds more), reporting `fs_put_mib_s` and `s3_put_mib_s`
 * (MiB/s) and each one's peak RSS growth over the process's RSS before it (`*_put_peak_rss_mb`,
 * sampled every 10 ms; target ≤ 64 MB). The S3 driver writes to an s3rver started in a child
 * process on loopback, so the figure counts only the driver's memory, not the server's.
 * `upload_spool_peak_rss_mb` is the same growth for a 100 MB upload sent over HTTP to a route
 * reading it as the document and recording routes do (readMultipart into spoolSink: written once,
 * into the disk store, whose file the checks read; decisions 0059 and 0083).
 */
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import Fastify from 'fastify'
import multipart from '@fastify/multipart'
import { z } from 'zod'
import { readMultipart } from '../server/uploads/read-multipart'
import { releaseSpool, spooled, spoolSink } from '../server/uploads/spool-upload'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import { createFsBlobStore } from '../server/blob/fs-blob-store'
import { createS3BlobStore, createS3Client } from '../server/blob/s3-blob-store'
import type { BlobStore } from '../server/blob/blob-store'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** Bytes streamed into each driver: 200 MB (the figure), in 64 KiB chunks. */
const OBJECT_BYTES = 200 * 1000 * 1000
const CHUNK_BYTES = 64 * 1024
const MIB = 1024 * 1024

async function* generated(): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < OBJECT_BYTES; sent += CHUNK_BYTES) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, OBJECT_BYTES - sent))
    chunk.fill(sent & 0xff)
    yield chunk
  }
}

/** Runs `work`, sampling RSS every 10 ms; its result, seconds and peak RSS growth in MB. */
async function withPeakRss<T>(work: () => Promise<T>) {
  global.gc?.()
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  const t0 = performance.now()
  try {
    const result = await work()
    return { result, seconds: (performance.now() - t0) / 1000, peakGrowthMb: (peak - before) / 1e6 }
  } finally {
    clearInterval(sampler)
  }
}

/** Streams the object into `blobs`; MiB/s and the peak RSS growth in MB. */
async function timedPut(blobs: BlobStore, key: string) {
  const { result: bytes, ...run } = await withPeakRss(() =>
    blobs.putStream(key, generated(), 'application/octet-stream'),
  )
  if (bytes !== OBJECT_BYTES) throw new Error(`stored ${bytes} bytes, expected ${OBJECT_BYTES}`)
  return { mibPerSecond: bytes / MIB / run.seconds, ...run }
}

/** Bytes of the spooled upload: a recording at the 100 MB cap. */
const UPLOAD_BYTES = 100 * 1000 * 1000

/**
 * Sends a 100 MB multipart upload over loopback HTTP to a route spooling it into `blobs` as the
 * upload routes do; the seconds and peak RSS growth of the whole process (client and server).
 */
async function timedSpooledUpload(blobs: BlobStore) {
  const app = Fastify()
  await app.register(multipart)
  app.post('/upload', async (req) => {
    const { file } = await readMultipart(req, {
      maxBytes: UPLOAD_BYTES,
      fields: z.object({}),
      sink: spoolSink(blobs, async () => ({
        key: 'orgs/o/documents/bench/original',
        contentType: 'application/octet-stream',
      })),
      missing: 'Send a file.',
    })
    const upload = spooled(file)
    await releaseSpool(upload)
    return { size: upload.size }
  })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const boundary = 'lexdesk-bench'
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\n\r\n`,
    )
    for (let sent = 0; sent < UPLOAD_BYTES; sent += CHUNK_BYTES)
      yield Buffer.alloc(Math.min(CHUNK_BYTES, UPLOAD_BYTES - sent), sent & 0xff)
    yield Buffer.from(`\r\n--${boundary}--\r\n`)
  }
  try {
    const run = await withPeakRss(async () => {
      const req = request(`${address}/upload`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      })
      const answered = new Promise<string>((resolve, reject) => {
        req.on('response', (res) => {
          let text = ''
          res.on('data', (chunk: Buffer) => (text += chunk.toString()))
          res.on('end', () => resolve(text))
        })
        req.on('error', reject)
      })
      await pipeline(Readable.from(body()), req)
      return answered
    })
    const { size } = JSON.parse(run.result) as { size?: number }
    if (size !== UPLOAD_BYTES) throw new Error(`spooled ${String(size)} bytes: ${run.result}`)
    return run
  } finally {
    await app.close()
  }
}

/** Starts s3rver in a child process on a free loopback port; resolves to its URL and a stop. */
async function startS3rver(directory: string) {
  const script = `const S3rver = require('s3rver');
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(directory)} })
  .run().then((a) => console.log('port=' + a.port))`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      const match = /port=(\d+)/.exec(data.toString())
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') }
}

/** Runs the storage bench and reports its figures through `report`. */
export async function storageBench(report: Report): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-storage-bench-'))
  const s3rver = await startS3rver(path.join(dir, 's3rver'))
  try {
    const fs = await timedPut(createFsBlobStore(path.join(dir, 'blobs')), 'orgs/o/imports/big.bin')
    report('fs_put_mib_s', fs.mibPerSecond, 'MiB/s', `200 MB in ${fs.seconds.toFixed(1)} s`)
    report('fs_put_peak_rss_mb', fs.peakGrowthMb, 'MB', 'RSS growth; target ≤ 64 MB')
    const spool = await timedSpooledUpload(createFsBlobStore(path.join(dir, 'blobs')))
    report(
      'upload_spool_peak_rss_mb',
      spool.peakGrowthMb,
      'MB',
      `100 MB multipart upload over HTTP in ${spool.seconds.toFixed(1)} s; target ≤ 64 MB`,
    )
    const settings = {
      endpoint: s3rver.url,
      bucket: 'bench',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    }
    const client = createS3Client(settings)
    await client.send(new CreateBucketCommand({ Bucket: settings.bucket }))
    const s3 = await timedPut(createS3BlobStore(client, settings), 'orgs/o/imports/big.bin')
    report('s3_put_mib_s', s3.mibPerSecond, 'MiB/s', `200 MB in ${s3.seconds.toFixed(1)} s, s3rver`)
    report('s3_put_peak_rss_mb', s3.peakGrowthMb, 'MB', 'RSS growth; target ≤ 64 MB')
    client.destroy()
  } finally {
    s3rver.stop()
    await rm(dir, { recursive: true, force: true })
  }
}
