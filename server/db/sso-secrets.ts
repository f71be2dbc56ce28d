/**
 * Encryption at rest of the secrets an SSO provider's configuration holds (issue 45): an OIDC
 * client secret and a SAML private key. `@better-auth/sso` keeps each configuration as one JSON
 * text column (`sso_provider.oidc_config`, `saml_config`) and reads the secret from it on every
 * sign-in, so the columns themselves encrypt: `ssoConfigColumn` (a Drizzle custom type) replaces
 * each secret field with `enc:v1:<key id>:<base64 iv‖tag‖ciphertext>` on the way to the database
 * and restores it on the way back. The plugin never sees ciphertext, the database never sees the
 * secret (nor does a dump or a backup).
 *
 * Cipher: AES-256-GCM (node:crypto), 12-byte random IV, 16-byte tag. Key: HKDF-SHA256 of the
 * server secret (LEXDESK_SECRET, or the one kept in the data directory) with the info string
 * below, so no second secret is needed; the key id (8 hex characters of the key's SHA-256) names
 * which key sealed a value. Keys are registered per process (`registerSsoSecretKey`, called by
 * createAuth); a value sealed under a key this process does not hold fails to open with an
 * Error naming its key id, and the provider's sign-in fails rather than using a wrong secret.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'
import { customType } from 'drizzle-orm/pg-core'

/** Prefix of a sealed value; `v1` is the format above. */
const SEALED_PREFIX = 'enc:v1:'
/** HKDF info: keeps this key apart from every other use of the server secret. */
const KEY_INFO = 'lexdesk sso provider secrets v1'
/** The configuration fields that are secrets, at the top level of the JSON object. */
export const SECRET_FIELDS = ['clientSecret', 'privateKey', 'decryptionPvk'] as const

const keys = new Map<string, Buffer>()
let currentKeyId: string | undefined

/**
 * Derives the sealing key from `serverSecret`, registers it and makes it the one new values are
 * sealed with. Returns its key id. Idempotent for the same secret.
 */
export function registerSsoSecretKey(serverSecret: string): string {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, '', KEY_INFO, 32))
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8)
  keys.set(id, key)
  currentKeyId = id
  return id
}

/** Seals one secret string (see the module comment). Throws when no key is registered. */
export function sealSecret(plain: string): string {
  if (currentKeyId === undefined) throw new Error('No SSO secret key is registered')
  const key = keys.get(currentKeyId) as Buffer
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
  return `${SEALED_PREFIX}${currentKeyId}:${sealed}`
}

/** Whether `value` is a sealed secret. */
export const isSealed = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(SEALED_PREFIX)

/** Opens a sealed secret; throws when its key is not registered or it was tampered with. */
export function openSecret(sealed: string): string {
  const [keyId, data] = sealed.slice(SEALED_PREFIX.length).split(':')
  const key = keyId === undefined ? undefined : keys.get(keyId)
  if (!key || data === undefined) throw new Error(`SSO secret sealed under unknown key ${keyId}`)
  const raw = Buffer.from(data, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

/**
 * Applies `change` to each secret field of a configuration's JSON text (null and text that is
 * not a JSON object pass unchanged).
 */
function mapSecrets(json: string, change: (value: string) => string): string {
  let config: unknown
  try {
    config = JSON.parse(json)
  } catch {
    return json
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return json
  const record = config as Record<string, unknown>
  for (const field of SECRET_FIELDS) {
    const value = record[field]
    if (typeof value === 'string' && value !== '') record[field] = change(value)
  }
  return JSON.stringify(record)
}

/** A configuration's JSON with its secrets sealed (already sealed ones kept). */
export const sealConfig = (json: string) =>
  mapSecrets(json, (value) => (isSealed(value) ? value : sealSecret(value)))

/** A configuration's JSON with its secrets opened. */
export const openConfig = (json: string) =>
  mapSecrets(json, (value) => (isSealed(value) ? openSecret(value) : value))

/** A text column holding an SSO configuration's JSON, its secret fields sealed at rest. */
export const ssoConfigColumn = customType<{ data: string; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => sealConfig(value),
  fromDriver: (value) => openConfig(value),
})
