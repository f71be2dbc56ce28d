/**
 * How one credential names another in a lineage (decision 0104): `api_key:<id>` for an API key,
 * `token:<jti>` for a tenant token, the audit log's actor type and the principal's credentialId.
 * A credential created by a signed-in person has no reference (its lineage is empty).
 */

/** The credential kinds that can create credentials and be named in a lineage. */
export type LineageKind = 'api_key' | 'token'

/** A credential of a lineage: its kind and its id (an API key's id, a token's jti). */
export interface CredentialRef {
  kind: LineageKind
  id: string
}

/**
 * The reference of the credential a principal acts through (`api_key:<id>`, `token:<jti>`), or
 * null when it acts through none (a session) or through a kind that records no lineage.
 */
export function credentialRef(principal: {
  actorType: string
  credentialId?: string | null
}): string | null {
  const { actorType, credentialId } = principal
  if (!credentialId || (actorType !== 'api_key' && actorType !== 'token')) return null
  return `${actorType}:${credentialId}`
}

/** The kind and id of a lineage entry, or null when it is not one credentialRef makes. */
export function parseCredentialRef(ref: string): CredentialRef | null {
  const colon = ref.indexOf(':')
  const kind = ref.slice(0, colon)
  const id = ref.slice(colon + 1)
  if (colon < 0 || (kind !== 'api_key' && kind !== 'token') || !UUID.test(id)) return null
  return { kind, id }
}

/** Both an API key's id and a token's jti are UUIDs (gen_random_uuid, randomUUID). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
