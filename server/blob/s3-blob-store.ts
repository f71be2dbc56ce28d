/**
 * BlobStore on an S3-compatible store (AWS S3, MinIO, R2, …; decision 0051), chosen when S3_BUCKET
 * is set. Uploads go through @aws-sdk/lib-storage's Upload: a source is cut into parts of
 * PART_BYTES, at most QUEUE_SIZE of them in memory at once, sent as one PutObject when it is
 * small and as a multipart upload otherwise; a failing source aborts the multipart upload (or
 * never sends the PutObject), so nothing is stored and an object already under the key stays.
 * Reads stream the response body, by range when asked. Checksums are computed only when an
 * operation requires them: the SDK's default CRC32 with aws-chunked framing is refused or stored
 * framed by several S3-compatible servers (STACK-NOTES, s3rver).
 */
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { MAX_LINK_SECONDS } from './signed-links'
import { Readable } from 'node:stream'
import type { S3Settings } from '../config'
import {
  assertSafeKey,
  assertSafePrefix,
  type BlobHead,
  type BlobInfo,
  type BlobStore,
} from './blob-store'

/** Part size of multipart uploads: 5 MiB, S3's minimum (the smallest part keeps an upload's memory lowest). */
const PART_BYTES = 5 * 1024 * 1024
/** Parts in memory and in flight at once: 2 × 5 MiB bounds an upload's parts to 10 MiB. */
const QUEUE_SIZE = 2
/** Keys one DeleteObjects call may name (S3's limit). */
const DELETE_BATCH = 1000

/** The SDK client for `settings`, with the checksum behaviour described in the module comment. */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404
}

/** Creates a BlobStore on bucket `settings.bucket` through `client`. */
export function createS3BlobStore(
  client: S3Client,
  settings: Pick<S3Settings, 'bucket'>,
): BlobStore {
  const Bucket = settings.bucket
  const headOf = (response: {
    ContentLength?: number
    ContentType?: string
    LastModified?: Date
    ContentRange?: string
  }): BlobHead => {
    // A ranged GET's ContentLength is the range's; the object's size ends its Content-Range.
    const total = /\/(\d+)$/.exec(response.ContentRange ?? '')?.[1]
    return {
      size: total ? Number(total) : (response.ContentLength ?? 0),
      contentType: response.ContentType ?? 'application/octet-stream',
      updatedAt: response.LastModified ?? new Date(0),
    }
  }
  async function* list(prefix: string): AsyncIterable<BlobInfo> {
    assertSafePrefix(prefix)
    let ContinuationToken: string | undefined
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
      )
      for (const item of page.Contents ?? [])
        if (item.Key) yield { key: item.Key, updatedAt: item.LastModified ?? new Date(0) }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (ContinuationToken)
  }
  return {
    async putStream(key, source, contentType) {
      assertSafeKey(key)
      let bytes = 0
      const counted = Readable.from(
        (async function* () {
          for await (const chunk of source) {
            bytes += chunk.length
            yield chunk
          }
        })(),
      )
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counted, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: QUEUE_SIZE,
        // Aborted below, so that the source's own error is the one thrown.
        leavePartsOnError: true,
      })
      try {
        await upload.done()
      } catch (error) {
        const UploadId = upload.uploadId
        // Parts of an upload never completed are not an object; aborting frees their space. A
        // server that cannot abort (s3rver) keeps them until a lifecycle rule removes them.
        if (UploadId)
          await client
            .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId }))
            .catch(() => undefined)
        throw error
      } finally {
        counted.destroy()
      }
      return bytes
    },
    localFile(key) {
      assertSafeKey(key)
      return null
    },
    async head(key) {
      assertSafeKey(key)
      try {
        return headOf(await client.send(new HeadObjectCommand({ Bucket, Key: key })))
      } catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },
    async getStream(key, range) {
      assertSafeKey(key)
      try {
        const response = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        )
        return { stream: response.Body as Readable, head: headOf(response) }
      } catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },
    async signedUrl(key, ttlSeconds, method = 'GET', fileName) {
      assertSafeKey(key)
      if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_LINK_SECONDS)
        throw new Error(`A link lives 1 to ${MAX_LINK_SECONDS} seconds`)
      const command =
        method === 'PUT'
          ? new PutObjectCommand({ Bucket, Key: key })
          : new GetObjectCommand({
              Bucket,
              Key: key,
              // S3 answers the link with this header (response-content-disposition, signed).
              ResponseContentDisposition:
                fileName === undefined ? undefined : attachmentNamed(fileName),
            })
      return getSignedUrl(client, command, { expiresIn: ttlSeconds })
    },
    async delete(key) {
      assertSafeKey(key)
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
    },
    list,
    async deletePrefix(prefix) {
      let batch: string[] = []
      const flush = async () => {
        if (batch.length === 0) return
        const Objects = batch.map((Key) => ({ Key }))
        batch = []
        const result = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }),
        )
        const failed = result.Errors?.[0]
        if (failed) throw new Error(`Could not delete ${failed.Key ?? 'an object'}: ${failed.Code}`)
      }
      for await (const { key } of list(prefix)) {
        batch.push(key)
        if (batch.length === DELETE_BATCH) await flush()
      }
      await flush()
    },
  }
}

/**
 * `Content-Disposition: attachment` naming `fileName` in RFC 8187's `filename*` form only (UTF-8,
 * percent-encoded), which cannot break out of the header whatever the name holds.
 */
function attachmentNamed(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename*=UTF-8''${encoded}`
}
