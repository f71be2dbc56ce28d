/** Zod schemas of the entities API: they validate requests, type handlers and document OpenAPI. */
import { z } from 'zod'
import { PageQuery, pageOf } from '../../lists/list-kit'
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

/**
 * Deepest nesting of an entity's `data` (objects and arrays, the top object = 1). Deeper data
 * overflowed the stack on its way to the database (issue 29: 5,000 levels in 30 KB); 64 is far
 * beyond any record a firm keeps.
 */
export const MAX_DATA_DEPTH = 64
/**
 * Largest `data` (its JSON text, in UTF-8 bytes), and so the largest CSV value an import takes:
 * one limit for the API and the import, under the API's 1 MiB body limit.
 */
export const MAX_DATA_BYTES = 256 * 1024
const MAX_DATA_KB = MAX_DATA_BYTES / 1024

/**
 * What is wrong with the JSON value `value` as entity data, or null: nesting over MAX_DATA_DEPTH,
 * a string (object keys included) that is not storable, or a number that is not finite.
 * JSON.parse reads a literal past a double's range (±1.8e308, e.g. `1e400`) as ±Infinity, which
 * JSON.stringify, and so jsonb, would keep as null: refused, so what is stored is what was sent.
 * Walks with its own stack, never recursing, so no nesting can overflow the call stack here.
 */
export function jsonDataProblem(value: unknown): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }]
  for (let item = pending.pop(); item; item = pending.pop()) {
    const inner = item.value
    if (typeof inner === 'string') {
      if (!storable(inner)) return 'Data may not contain NUL characters or unpaired surrogates'
      continue
    }
    if (typeof inner === 'number' && !Number.isFinite(inner))
      return 'Data may not hold a number past ±1.8e308 (the range of a double)'
    if (inner === null || typeof inner !== 'object') continue
    const depth = item.depth + 1
    if (depth > MAX_DATA_DEPTH) return `Data may not nest more than ${MAX_DATA_DEPTH} levels deep`
    for (const [key, child] of Object.entries(inner)) {
      if (!Array.isArray(inner) && !storable(key))
        return 'Data may not contain NUL characters or unpaired surrogates'
      pending.push({ value: child, depth })
    }
  }
  return null
}

/** Whether the text `text` is within MAX_DATA_BYTES in UTF-8. */
export function withinDataLimit(text: string): boolean {
  return text.length <= MAX_DATA_BYTES && Buffer.byteLength(text) <= MAX_DATA_BYTES
}

/** The message for data (or a CSV value) over MAX_DATA_BYTES. */
export const DATA_TOO_LARGE = `Data may not be larger than ${MAX_DATA_KB} KB`

/**
 * An entity's name, as every write takes it (the API, the MCP tool, the CSV import): cleaned like
 * a document's title (single-line-text.ts: line breaks become a space, control and bidi
 * characters and unpaired surrogates go, so "Acme\u202Efdp.exe" cannot pose as another name),
 * then 1 to MAX_NAME_CHARACTERS characters.
 */
export const EntityName = z
  .string()
  .transform(toSingleLineText)
  .pipe(z.string().min(1, 'Give the entity a name').max(MAX_NAME_CHARACTERS))

/** An entity's type, cleaned like its name, then 1 to MAX_TYPE_CHARACTERS characters. */
export const EntityType = z
  .string()
  .transform(toSingleLineText)
  .pipe(z.string().min(1, 'Give the entity a type').max(MAX_TYPE_CHARACTERS))

/** The `data` of an entity: a JSON object (not an array or a scalar). */
export const EntityData = z.record(z.string(), z.unknown()).describe('A JSON object')

/**
 * `data` as sent by a client or a CSV file: also checked for depth and storable strings
 * (jsonDataProblem), then for size (MAX_DATA_BYTES); the size is measured only on data whose
 * depth is known to be bounded.
 */
export const StorableEntityData = EntityData.superRefine((data, context) => {
  const problem = jsonDataProblem(data)
  if (problem) context.addIssue({ code: 'custom', message: problem })
  else if (!withinDataLimit(JSON.stringify(data)))
    context.addIssue({ code: 'custom', message: DATA_TOO_LARGE })
})

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
  id: z
    .string()
    .uuid({ message: 'id must be an entity id (UUID)' })
    .optional()
    .describe('Only this entity (a link to one, e.g. from the audit log)'),
  q: z
    .string()
    .max(200)
    .transform(toSingleLineText)
    .optional()
    .describe('Case-insensitive partial match on name or type'),
  type: z
    .string()
    .max(MAX_TYPE_CHARACTERS)
    .refine(storable, 'Type may not contain NUL characters or unpaired surrogates')
    .optional()
    .describe('Exact type'),
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
  // The default before the cleaning, where the OpenAPI document (the pipe's input) shows it.
  type: z.string().default(DEFAULT_ENTITY_TYPE).pipe(EntityType),
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
