/**
 * The configuration of test apps, parsed by the real schema (loadConfig, server/config.ts) from an
 * environment, so a default lives only there: a test states the variables it changes, as an
 * operator would.
 */
import { loadConfig, type Config } from '../config'

/** Environment variables by name (EnvSchema's, e.g. `MAX_RECORDING_MINUTES: '1'`). */
export type TestEnv = Readonly<Record<string, string | undefined>>

export const TEST_ORIGIN = 'http://localhost:3000'

/** The server secret of test apps (tests sign tenant tokens with it: tenant-token-jwt.ts). */
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789'

/**
 * Requests per principal per minute high enough that tests making many requests are not limited
 * (rate-limits tests pass the real defaults instead).
 */
export const UNLIMITED_API_ENV: TestEnv = {
  API_READS_PER_MINUTE: '100000',
  API_WRITES_PER_MINUTE: '100000',
  API_KEY_REQUESTS_PER_MINUTE: '100000',
  API_FAILED_CREDENTIALS_PER_MINUTE: '100000',
}

/**
 * What every test app sets: its origin and secret, two background jobs at once (the runner's own
 * default, whatever the machine's cores), sign-ins from one address not limited (a test signs in
 * many people from 127.0.0.1), the walks' identity provider's origin and no web build (`WEB_ROOT` is set per app by buildTestApp).
 */
export const TEST_ENV: TestEnv = {
  NODE_ENV: 'test',
  PUBLIC_URL: TEST_ORIGIN,
  LEXDESK_SECRET: TEST_SECRET,
  JOBS_CONCURRENCY: '2',
  SIGN_IN_REQUESTS_PER_CLIENT: '1000',
  // The walks' SSO provider's (operation-walk.ts): registered with explicit endpoints, never fetched.
  SSO_IDP_ORIGINS: 'https://idp.walk.example',
  ...UNLIMITED_API_ENV,
}

/**
 * `loadConfig` of TEST_ENV with `env` over it (an `undefined` value removes a variable, so its
 * schema default applies). Throws as loadConfig does on an invalid value.
 */
export function testConfig(env: TestEnv = {}): Config {
  const merged: Record<string, string> = {}
  for (const [name, value] of Object.entries({ ...TEST_ENV, ...env })) {
    if (value !== undefined) merged[name] = value
  }
  return loadConfig(merged)
}
