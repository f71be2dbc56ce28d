/** s3rver ships no types: the part the S3 driver's tests use (an S3-compatible server on a port). */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'

  interface S3rverOptions {
    address?: string
    /** 0 picks a free port. */
    port?: number
    silent?: boolean
    /** Where the buckets are kept. */
    directory?: string
    configureBuckets?: { name: string }[]
  }

  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
