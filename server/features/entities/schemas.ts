/** Zod schemas of the entities API: they validate requests, type handlers and document OpenAPI. */
import { z } from 'zod'
import { PageQuery, pageOf } from '../../http/paging'
import { AppId, OrgParams } from '../../http/params'
import { toSingleLineText } from '../../http/single-line-text'

/** Longest name: 500 characters; longest type: 100. */
export const MAX_NAME_CHARACTERS = 500
export const MAX_TYPE_CHARACTERS = 100
/** Default type of a new entity (spec section 9). */
export const DEFAULT_ENTITY_TYPE = 'item'

// PostgreSQL text and jsonb cannot hold NUL, and UTF-8 has no form for a lone UTF-16 surrogate
// (text would store U+FFFD in its place; jsonb refuses it). Both are refused rather than changed
// or failing in the database, so what is stored is exactly what was sent.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const storable = (s: string) => !s.includes('\u0000') && !LONE_SURROGATE.test(s)

/** Whether every string in a JSON value, object keys included, is storable. */
function storableJson(value: unknown): boolean {
  if (typeof value === 'string') return storable(value)
  if (Array.isArray(value)) return value.every(storableJson)
  if (value !== null && typeof value === 'object')
    return Object.entries(value).every(([key, inner]) => storable(key) && storableJson(inner))
  return true
}

export const EntityName = z
  .string()
  .refine(storable, 'Name may not contain NUL characters or unpaired surrogates')
  .pipe(z.string().min(1, 'Give the entity a name').max(MAX_NAME_CHARACTERS))

export const EntityType = z
  .string()
  .refine(storable, 'Type may not contain NUL characters or unpaired surrogates')
  .pipe(z.string().min(1, 'Give the entity a type').max(MAX_TYPE_CHARACTERS))

/** The `data` of an entity: a JSON object (not an array or a scalar). */
export const EntityData = z.record(z.string(), z.unknown()).describe('A JSON object')

/** `data` as sent by a client or a CSV file: also checked to be storable (above). */
export const StorableEntityData = EntityData.refine(
  storableJson,
  'Data may not contain NUL characters or unpaired surrogates',
)

export const EntitySchema = z
  .object({
    id: z.string().uuid(),
    orgId: z.string(),
    appId: z.string().uuid().nullable().describe('The app it belongs to; null = organisation-wide'),
    type: z.string(),
    name: z.string(),
    data: EntityData,
    createdAt: z.string(),
  })
  .meta({ id: 'Entity' })

export const EntityParams = OrgParams.extend({
  entityId: z.string().uuid({ message: 'Entity id must be a UUID' }),
})

const EntityFilters = {
  q: z
    .string()
    .max(200)
    .transform(toSingleLineText)
    .optional()
    .describe('Case-insensitive partial match on name or type'),
  type: z.string().max(MAX_TYPE_CHARACTERS).optional().describe('Exact type'),
  appId: AppId.optional().describe("Only this app's entities; absent = all of the organisation's"),
}

export const EntityListQuery = PageQuery.extend({
  ...EntityFilters,
  sort: z
    .string()
    .max(500)
    .optional()
    .describe(
      'Comma-separated `key:dir` terms, first term first, dir asc or desc; keys id, type, name, data, created_at, org_id, app_id or data.<key> (a key of the JSON data). Default created_at:desc.',
    ),
})

export const EntityExportQuery = z.object(EntityFilters)

export const EntityPage = pageOf(EntitySchema)

export const NewEntity = z.object({
  name: EntityName,
  type: EntityType.default(DEFAULT_ENTITY_TYPE),
  data: StorableEntityData.default({}),
  appId: AppId.optional().describe('The app to file it under; absent = organisation-wide'),
})

export const EntityPatch = z
  .object({ name: EntityName, type: EntityType, data: StorableEntityData })
  .partial()
  .refine((p) => Object.keys(p).length > 0, 'Send at least one of name, type and data')

/** Most ids one bulk delete takes: a page of the largest size (200). */
export const MAX_BULK_DELETE = 200

export const BulkDelete = z.object({
  ids: z
    .array(z.string().uuid({ message: 'Entity ids must be UUIDs' }))
    .min(1, 'Select at least one entity')
    .max(MAX_BULK_DELETE),
})
