/**
 * The kinds of actor a principal can be, and so an audit row's `actor_type`: a person signed in
 * (`user`), the server acting on its own (`system`: start-up sweeps, jobs nobody asked for), an
 * API key (`api_key`), a tenant token (`token`), a custom GPT (`gpt`) or an MCP client (`mcp`).
 * The database checks an audit row's actor type against this list
 * (`audit_logs_actor_type_check`); a later credential kind adds its name here and widens that
 * check in a migration of its own (decision 0046).
 */
export const ACTOR_TYPES = ['user', 'system', 'api_key', 'token', 'gpt', 'mcp'] as const

/** One of ACTOR_TYPES. */
export type ActorType = (typeof ACTOR_TYPES)[number]

/**
 * The actor types an audit row may hold: a principal's, and `imported` for the rows an
 * organisation import brought from its archive (decision 0103), whose actor was someone of
 * another server, named in the row's `meta.importedActor`, never a user of this one. No principal
 * is ever `imported`.
 */
export const AUDIT_ACTOR_TYPES = [...ACTOR_TYPES, 'imported'] as const

/** One of AUDIT_ACTOR_TYPES. */
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number]
