/** Where the e2e server listens and logs; shared by the config, global setup and specs. */
import os from 'node:os'
import path from 'node:path'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3917)
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`
/** The server's stdout is written here, so specs can read the printed sign-in links. */
export const E2E_LOG = path.join(os.tmpdir(), `lexdesk-e2e-${E2E_PORT}.log`)
/** The browser tests' OpenID Connect identity provider (e2e/global-setup.ts, sso.spec.ts). */
export const E2E_IDP_PORT = Number(process.env.E2E_IDP_PORT ?? E2E_PORT + 1)
export const E2E_IDP_ISSUER = `http://127.0.0.1:${E2E_IDP_PORT}`
/** Its client, which the spec registers as the organisation's provider. */
export const E2E_IDP_CLIENT = { clientId: 'lexdesk-e2e', clientSecret: 'lexdesk-e2e-secret' }
/** The IdP knows every address at this domain. */
export const E2E_SSO_DOMAIN = 'sso-e2e.test'
