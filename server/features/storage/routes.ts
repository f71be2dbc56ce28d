/**
 * HTTP routes of storage buckets and their objects (issue 24, decision 0055): members list
 * buckets and objects, upload, download and sign links; admins create and delete buckets and
 * delete or replace anyone's objects (members only their own). Logic lives in bucket-service.ts and
 * object-service.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { MAX_LINK_SECONDS } from '../../blob/signed-links'
import { OrgParams } from '../../http/params'
import { problemResponse } from '../../http/problem-responses'
import { deleteRoute } from '../../http/delete-route'
import { readMultipart } from '../../uploads/read-multipart'
import { sendBlob } from '../../blob/send-blob'
import { streamResponse } from '../../http/stream-responses'
import type { FeatureContext } from '../../services'
import { createBucket, deleteBucket, listBuckets } from './bucket-service'
import { MAX_OBJECT_NAME_BYTES, normalisePrefix } from './object-name'
import {
  deleteObject,
  getObjectFile,
  listObjects,
  objectFileSink,
  objectNotFound,
  saveObject,
  signObject,
} from './object-service'

const Bucket = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    public: z.boolean(),
    readOnly: z
      .boolean()
      .describe('The system bucket voice-recordings: listed, downloaded and signed only'),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'StorageBucket' })

const StorageObject = z
  .object({
    id: z.string().uuid(),
    bucketId: z.string().uuid(),
    name: z.string(),
    size: z.number().int().describe('Bytes'),
    contentType: z.string().describe('Sniffed from the first bytes, never the client’s claim'),
    createdBy: z
      .string()
      .nullable()
      .describe('Who uploaded it first: an overwrite keeps it (null once their account is gone)'),
    updatedAt: z.string(),
  })
  .meta({ id: 'StorageObject' })

const NewBucket = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9-]{3,63}$/, 'A bucket name is 3 to 63 lower-case letters, digits and hyphens'),
  public: z.boolean().default(false),
})

const BucketParams = OrgParams.extend({
  bucketId: z.string().uuid({ message: 'Bucket id must be a UUID' }),
})

const ObjectParams = OrgParams.extend({
  objectId: z.string().uuid({ message: 'Object id must be a UUID' }),
})

/** Objects a page holds at most (the spec's list limit). */
const OBJECT_PAGE = 100

const ObjectListQuery = z.object({
  prefix: z.string().max(MAX_OBJECT_NAME_BYTES).default('').describe('Names starting with it'),
  limit: z.coerce.number().int().min(1).max(OBJECT_PAGE).default(OBJECT_PAGE),
  cursor: z
    .string()
    .max(MAX_OBJECT_NAME_BYTES)
    .optional()
    .describe('The `nextCursor` of the page before'),
})

const UploadFields = z.object({
  prefix: z
    .string()
    .max(MAX_OBJECT_NAME_BYTES)
    .default('')
    .describe('Folder the file goes in, e.g. `contracts/`'),
})

/** A signed link's life when none is asked for: an hour (the spec's). */
const DEFAULT_LINK_SECONDS = 3600

const SignBody = z.object({
  ttlSeconds: z.number().int().min(1).max(MAX_LINK_SECONDS).default(DEFAULT_LINK_SECONDS),
})

export const storageRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const deps = {
    db: services.db,
    blobs: services.blobs,
    quotaBytes: services.limits.storageQuotaBytes,
    quotaObjects: services.limits.storageQuotaObjects,
  }

  app.get(
    '/orgs/:orgId/storage/buckets',
    {
      schema: {
        operationId: 'listBuckets',
        tags: ['storage'],
        description: 'The organisation’s storage buckets, by name.',
        params: OrgParams,
        response: { 200: z.object({ items: z.array(Bucket) }) },
      },
      config: { minRole: 'member', app: 'organisation' },
    },
    (req) => listBuckets(services.db, principalOf(req)),
  )

  app.post(
    '/orgs/:orgId/storage/buckets',
    {
      schema: {
        operationId: 'createBucket',
        tags: ['storage'],
        description:
          'Creates a bucket: a name of 3 to 63 lower-case letters, digits and hyphens (400 otherwise), unique in the organisation (409 `bucket_exists`).',
        params: OrgParams,
        body: NewBucket,
        response: {
          201: Bucket,
          409: problemResponse('The organisation has a bucket of that name'),
        },
      },
      config: { minRole: 'admin', app: 'organisation' },
    },
    async (req, reply) =>
      reply.status(201).send(await createBucket(services.db, principalOf(req), req.body)),
  )

  deleteRoute(
    app,
    '/orgs/:orgId/storage/buckets/:bucketId',
    {
      operationId: 'deleteBucket',
      tags: ['storage'],
      description: 'Deletes the bucket and every object in it.',
      params: BucketParams,
      minRole: 'admin',
      app: 'organisation',
      notFound: 'No such bucket',
    },
    (params, req) => deleteBucket(deps, principalOf(req), params.bucketId),
  )

  app.get(
    '/orgs/:orgId/storage/buckets/:bucketId/objects',
    {
      schema: {
        operationId: 'listObjects',
        tags: ['storage'],
        description: `The bucket’s objects whose names start with \`prefix\`, by name (byte order), at most ${OBJECT_PAGE} a page; pass \`nextCursor\` as \`cursor\` for the next page.`,
        params: BucketParams,
        querystring: ObjectListQuery,
        response: {
          200: z.object({ items: z.array(StorageObject), nextCursor: z.string().nullable() }),
          404: problemResponse('No such bucket'),
        },
      },
      config: { minRole: 'member', app: 'organisation' },
    },
    (req) =>
      listObjects(services.db, principalOf(req), req.params.bucketId, {
        prefix: normalisePrefix(req.query.prefix),
        limit: req.query.limit,
        after: req.query.cursor ?? null,
      }),
  )

  app.post(
    '/orgs/:orgId/storage/buckets/:bucketId/objects',
    {
      schema: {
        operationId: 'uploadObject',
        tags: ['storage'],
        description:
          'multipart/form-data with `file` and an optional `prefix`: stores the file as `prefix` + its file name (normalised; 400 `bad_object_name` for `..`, absolute paths, control characters or past 1,024 bytes), replacing an object of that name: only its creator or an admin may (403 `forbidden` otherwise), and its creator stays. Streamed into the store; its type is sniffed from its bytes. 413 `storage_quota_exceeded` past the organisation’s STORAGE_QUOTA_BYTES or, for a new name, its STORAGE_QUOTA_OBJECTS, with nothing stored.',
        consumes: ['multipart/form-data'],
        params: BucketParams,
        response: {
          201: StorageObject,
          403: problemResponse(
            'An object of that name is someone else’s: only its creator or an admin may replace it',
          ),
          404: problemResponse('No such bucket'),
          413: problemResponse('Past the organisation’s storage quota'),
        },
      },
      config: { minRole: 'member', app: 'organisation' },
    },
    async (req, reply) => {
      const principal = principalOf(req)
      const { file, fields } = await readMultipart(req, {
        // One byte past the quota, so a file larger than it meets the quota's own problem.
        maxBytes: deps.quotaBytes + 1,
        fields: UploadFields,
        sink: objectFileSink(deps, principal, req.params.bucketId),
        missing: 'Send the file as the multipart field "file".',
      })
      const saved = await saveObject(deps, principal, req.params.bucketId, file, fields.prefix)
      return reply.status(201).send(saved)
    },
  )

  app.get(
    '/orgs/:orgId/storage/objects/:objectId',
    {
      schema: {
        operationId: 'downloadObject',
        tags: ['storage'],
        description:
          "The object’s bytes as an attachment, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`; honours a single `Range: bytes=…` (206).",
        params: ObjectParams,
        response: {
          200: streamResponse('The whole object', ['*/*']),
          206: streamResponse('The requested byte range', ['*/*']),
          404: problemResponse('No such object'),
          416: problemResponse('The range is outside the object'),
        },
      },
      config: { minRole: 'member', app: 'organisation' },
    },
    async (req, reply) => {
      const file = await getObjectFile(services.db, principalOf(req), req.params.objectId)
      return sendBlob(req, reply, deps.blobs, { ...file, missing: objectNotFound })
    },
  )

  app.post(
    '/orgs/:orgId/storage/objects/:objectId/signed-url',
    {
      schema: {
        operationId: 'signObjectUrl',
        tags: ['storage'],
        description: `A URL that downloads the object without any other credential for \`ttlSeconds\` (default ${DEFAULT_LINK_SECONDS}, at most a week): presigned by S3 on the S3 driver, an HMAC-signed Lexdesk link on disk. It cannot be altered to reach another object or last longer; overwriting the object voids it.`,
        params: ObjectParams,
        body: SignBody,
        response: {
          200: z.object({ url: z.string(), expiresAt: z.string() }),
          404: problemResponse('No such object'),
        },
      },
      config: { minRole: 'member', app: 'organisation' },
    },
    (req) => signObject(deps, principalOf(req), req.params.objectId, req.body.ttlSeconds),
  )

  app.delete(
    '/orgs/:orgId/storage/objects/:objectId',
    {
      schema: {
        operationId: 'deleteObject',
        tags: ['storage'],
        description:
          'Deletes the object and its bytes. Members delete only objects they created (an overwrite keeps the creator; 403 `forbidden`); admins any.',
        params: ObjectParams,
        response: { 204: z.null(), 404: problemResponse('No such object') },
      },
      config: { minRole: 'member', app: 'organisation' },
    },
    async (req, reply) => {
      await deleteObject(deps, principalOf(req), req.params.objectId)
      return reply.status(204).send(null)
    },
  )
}
