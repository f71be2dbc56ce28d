/** Where the e2e server listens and logs; shared by the config, global setup and specs. */
import os from 'node:os'
import path from 'node:path'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3917)
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`
/** The server's stdout is written here, so specs can read the printed sign-in links. */
export const E2E_LOG = path.join(os.tmpdir(), `lexdesk-e2e-${E2E_PORT}.log`)
