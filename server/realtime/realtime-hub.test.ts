/**
 * The hub's end of a session socket (issue 41, decision 0106), on embedded PGlite with a stand-in
 * socket: at the end known when it opened, the session is read again, so a session renewed
 * meanwhile keeps its socket to its new end, and one that was not closes then.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { openTestDatabase } from '../test/test-database'
import { ChangeFeed } from './change-feed'
import { createNotifier } from './notifier'
import { CLOSE_CODES, RealtimeHub, type HubSocket, type SocketOwner } from './realtime-hub'

const database = await openTestDatabase()
const log = { warn: () => {} }
const notifier = createNotifier(database, log)
const hub = new RealtimeHub({
  db: database.db,
  changes: new ChangeFeed(notifier, log),
  notifier,
  log,
})
await hub.start()
afterAll(async () => {
  await hub.close()
  await notifier.close()
  await database.close()
})

/** A stand-in socket that notes how and when it was closed. */
function fakeSocket() {
  const socket = {
    closed: null as { code: number; reason: string; at: number } | null,
    bufferedAmount: 0,
    send: () => {},
    close(code: number, reason: string) {
      socket.closed ??= { code, reason, at: Date.now() }
    },
  } satisfies HubSocket & { closed: unknown }
  return socket
}

let sessions = 0
/** A user with one session ending at `expiresAt`; returns the session's id. */
async function sessionEndingAt(expiresAt: Date): Promise<string> {
  const n = ++sessions
  const [userId, sessionId] = [`hub-user-${n}`, `hub-session-${n}`]
  await database.db.execute(
    sql`INSERT INTO "user" (id, name, email) VALUES (${userId}, 'U', ${`${userId}@example.test`})`,
  )
  await database.db.execute(
    sql`INSERT INTO session (id, token, user_id, expires_at) VALUES (${sessionId}, ${`t-${n}`}, ${userId}, ${expiresAt})`,
  )
  return sessionId
}

const owner = (sessionId: string, expiresAt: Date): SocketOwner => ({
  orgId: 'org-hub',
  appId: null,
  userId: null,
  sessionId,
  credentialId: null,
  expiresAt,
})

describe("a session socket's end", () => {
  it('closes at the session end it learnt at the upgrade when the session was not renewed', async () => {
    const end = new Date(Date.now() + 200)
    const socket = fakeSocket()
    hub.attach(socket, owner(await sessionEndingAt(end), end))
    await expect.poll(() => socket.closed, { timeout: 10_000 }).not.toBeNull()
    expect(socket.closed).toMatchObject({
      code: CLOSE_CODES.credentialEnded,
      reason: 'Session expired',
    })
    expect(socket.closed!.at).toBeGreaterThanOrEqual(end.getTime())
  })

  it('keeps the socket of a session renewed meanwhile open to its new end, then closes it', async () => {
    const learnt = new Date(Date.now() + 200)
    const renewed = new Date(learnt.getTime() + 800)
    const socket = fakeSocket()
    hub.attach(socket, owner(await sessionEndingAt(renewed), learnt))
    await expect.poll(() => socket.closed, { timeout: 10_000 }).not.toBeNull()
    expect(socket.closed).toMatchObject({ code: CLOSE_CODES.credentialEnded })
    // Closed at the renewed end, never at the one known when it opened.
    expect(socket.closed!.at).toBeGreaterThanOrEqual(renewed.getTime())
  })

  it('closes at once a socket whose session is already gone when it is attached', async () => {
    const end = new Date(Date.now() + 3_600_000)
    const socket = fakeSocket()
    hub.attach(socket, owner('hub-session-never-stored', end))
    await expect
      .poll(() => socket.closed, { timeout: 10_000 })
      .toMatchObject({
        code: CLOSE_CODES.credentialEnded,
        reason: 'Signed out',
      })
  })
})
