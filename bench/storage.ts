/**
 * Object storage (issue 24): a 200 MB object streamed into each blob driver as an upload would be
 * (64 KiB chunks from a source that never holds more), reporting `fs_put_mib_s` and `s3_put_mib_s`
 * (MiB/s) and each one's peak RSS growth over the process's RSS before it (`*_put_peak_rss_mb`,
 * sampled every 10 ms; target ≤ 64 MB). The S3 driver writes to an s3rver started in a child
 * process on loopback, so the figure counts only the driver's memory, not the server's.
 */
import { spawn } from 'node:child_process'
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

/** Streams the object into `blobs`; MiB/s and the peak RSS growth in MB. */
async function timedPut(blobs: BlobStore, key: string) {
  global.gc?.()
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  const t0 = performance.now()
  try {
    const bytes = await blobs.putStream(key, generated(), 'application/octet-stream')
    const seconds = (performance.now() - t0) / 1000
    if (bytes !== OBJECT_BYTES) throw new Error(`stored ${bytes} bytes, expected ${OBJECT_BYTES}`)
    return { mibPerSecond: bytes / MIB / seconds, peakGrowthMb: (peak - before) / 1e6, seconds }
  } finally {
    clearInterval(sampler)
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
