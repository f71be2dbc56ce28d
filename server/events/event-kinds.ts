/**
 * The closed catalogue of event kinds (issue 24), like the error codes: each kind of the
 * organisation's event log (a dotted `subject.verb`) with the zod schema of its `meta`. A new
 * kind of event is a line here; recordEvent refuses any other kind at compile time and checks
 * `meta` against its schema at run time. Schemas are strict (no other keys) so that nothing more
 * than these small facts (ids, counts, titles, names) reaches the event log, read by every member
 * and sent live over the realtime channel: never document text, tokens or secrets.
 */
import { z } from 'zod'

const id = z.string().min(1).max(200)
const title = z.string().max(500)

const DocumentMeta = z.strictObject({ documentId: id, title })
const RecordingMeta = z.strictObject({ recordingId: id })
const InvitationMeta = z.strictObject({
  invitationId: id,
  email: z.string().max(320),
  role: z.string().max(50).nullable(),
})
const MemberMeta = z.strictObject({
  memberId: id,
  userId: id,
  role: z.string().max(50),
  invitationId: id.optional(),
})

/** An API key by id and name: never its secret, nor its prefix (events are read by every member). */
const ApiKeyMeta = z.strictObject({ keyId: id, name: z.string().max(100) })
const BucketMeta = z.strictObject({ bucketId: id, name: z.string().max(63) })
const ObjectMeta = z.strictObject({ objectId: id, bucketId: id, name: z.string().max(1024) })

export const EVENT_KINDS = {
  'document.uploaded': DocumentMeta,
  'document.pasted': DocumentMeta,
  'document.renamed': DocumentMeta,
  'document.deleted': DocumentMeta,
  'analysis.finished': z.strictObject({ documentId: id, analysisId: id, kind: z.string().max(50) }),
  'entity.created': z.strictObject({ entityId: id, type: z.string().max(200) }),
  'entity.updated': z.strictObject({ entityId: id, fields: z.array(z.string().max(50)).max(20) }),
  'entities.deleted': z.strictObject({ count: z.number().int().nonnegative() }),
  'entities.imported': z.strictObject({
    count: z.number().int().nonnegative(),
    fileName: z.string().max(500),
  }),
  'recording.uploaded': RecordingMeta,
  'recording.transcribed': RecordingMeta.extend({
    documentId: id,
    durationSec: z.number().nonnegative().nullable(),
    engine: z.string().max(100),
  }),
  'recording.deleted': RecordingMeta.extend({ title }),
  'app.created': z.strictObject({ appId: id, slug: z.string().max(100) }),
  'assistant.asked': z.strictObject({ conversationId: id }),
  'invitation.created': InvitationMeta,
  'invitation.resent': InvitationMeta,
  'invitation.cancelled': InvitationMeta,
  'invitation.declined': InvitationMeta,
  'member.joined': MemberMeta,
  'member.role_changed': MemberMeta,
  'member.removed': MemberMeta,
  'member.left': MemberMeta,
  'key.created': ApiKeyMeta,
  'key.revoked': ApiKeyMeta,
  'bucket.created': BucketMeta,
  'bucket.deleted': BucketMeta,
  'object.uploaded': ObjectMeta,
  'object.deleted': ObjectMeta,
  'org.exported': z.strictObject({
    jobId: id.nullable(),
    sizeBytes: z.number().int().nonnegative(),
  }),
  /** An archive imported into this (new) organisation: by job `jobId`, or the command (null). */
  'org.imported': z.strictObject({
    jobId: id.nullable(),
    sourceOrgId: z.string().max(200),
    rows: z.number().int().nonnegative(),
  }),
  /** This organisation copied into a new one: by job `jobId`, or the command (null). */
  'org.cloned': z.strictObject({
    jobId: id.nullable(),
    targetOrgId: id,
    rows: z.number().int().nonnegative(),
  }),
} as const satisfies Record<string, z.ZodType<Record<string, unknown>>>

/** A kind of event (a key of EVENT_KINDS). */
export type EventKind = keyof typeof EVENT_KINDS

/** The metadata an event of kind `K` takes. */
export type EventMeta<K extends EventKind> = z.input<(typeof EVENT_KINDS)[K]>
