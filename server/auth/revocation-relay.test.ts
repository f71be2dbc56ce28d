import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../db/client'
import { createNotifier, type Notifier } from '../realtime/notifier'
import { openTestDatabase } from '../test/test-database'
import { REVOCATIONS_CHANNEL, startRevocationRelay } from './revocation-relay'

let database: Database
let notifier: Notifier
const log = { warn: vi.fn() }
beforeAll(async () => {
  database = await openTestDatabase()
  notifier = createNotifier(database, log)
})
afterAll(async () => {
  await notifier.close()
  await database.close()
})

const targets = () => ({
  forgetPrincipals: vi.fn(),
  forgetApiKey: vi.fn(),
  forgetTenantToken: vi.fn(),
})

/** Resolves once `listener` has been called (notifications arrive as their statement commits). */
const called = (listener: ReturnType<typeof vi.fn>) =>
  vi.waitFor(() => expect(listener).toHaveBeenCalled())

describe('the revocation relay', () => {
  it("applies another process's revocations, each to its cache, and not its own", async () => {
    const [here, there] = [targets(), targets()]
    // Two processes' relays on one database: the notifier is the only link between them.
    const mine = await startRevocationRelay(notifier, here, log)
    const theirs = await startRevocationRelay(notifier, there, log)
    mine.announce({ kind: 'principals' })
    mine.announce({ kind: 'api_key', id: 'digest-1' })
    mine.announce({ kind: 'tenant_token', id: 'jti-1' })
    await called(there.forgetTenantToken)
    expect(there.forgetPrincipals).toHaveBeenCalledTimes(1)
    expect(there.forgetApiKey).toHaveBeenCalledWith('digest-1')
    expect(there.forgetTenantToken).toHaveBeenCalledWith('jti-1')
    for (const listener of Object.values(here)) expect(listener).not.toHaveBeenCalled()
    await mine.close()
    await theirs.close()
  })

  it('ignores a notification of an unknown shape, saying so', async () => {
    const there = targets()
    const relay = await startRevocationRelay(notifier, there, log)
    log.warn.mockClear()
    await notifier.notify(REVOCATIONS_CHANNEL, JSON.stringify({ kind: 'everything', from: 'x' }))
    await called(log.warn)
    for (const listener of Object.values(there)) expect(listener).not.toHaveBeenCalled()
    await relay.close()
  })
})
