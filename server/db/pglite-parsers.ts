/**
 * Drizzle sends its own `parsers` with every PGlite query (date, time and interval types, and
 * their arrays, kept as text for its column mappers; drizzle-orm/pglite/session.js), and PGlite
 * merges them into its parser table of ~335 types with an object spread on every query: about
 * 0.1 ms each, a tenth of a small tenant request's CPU (decision 7). Here the same overrides are
 * installed once into the instance's own table (after PGlite's start-up, which registers the
 * array types' parsers) and dropped from each query's options, so every result is what it was and
 * the per-query merge disappears. A query whose parsers are not only these keeps them (the slow
 * path, still correct).
 */
import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite'

/** The type OIDs Drizzle keeps as text: timestamp(tz), interval, date and their arrays. */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]
const keepText = (value: string) => value

/** Drizzle's overrides, installed as the instance's defaults by skipPerQueryParsers. */
const DRIZZLE_PARSERS = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((t) => [t, keepText]))

const installed = new Set(Object.keys(DRIZZLE_PARSERS))

/** `options` without `parsers` when they only repeat the installed ones, else unchanged. */
function withoutInstalledParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options
  for (const key in options.parsers) if (!installed.has(key)) return options
  return { ...options, parsers: undefined }
}

/**
 * Installs Drizzle's parsers as `client`'s own and makes it drop them from each query's options,
 * on its own queries and those of its transactions. Call once, after `PGlite.create` resolves and
 * before handing the client to Drizzle. Raw queries on `client` then get these types as text too.
 */
export function skipPerQueryParsers(client: PGlite): void {
  Object.assign(client.parsers, DRIZZLE_PARSERS)
  const query = client.query.bind(client)
  client.query = (text, params, options) => query(text, params, withoutInstalledParsers(options))
  const transaction = client.transaction.bind(client)
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx)
      tx.query = (text, params, options) => txQuery(text, params, withoutInstalledParsers(options))
      return callback(tx)
    })
}
