/**
 * The hub's relay of organisation messages (ORG_MESSAGES_CHANNEL, decision 0137), on embedded
 * PGlite with stand-in sockets: a message notified in a committed transaction reaches its
 * organisation's sockets (an app-bound one only for its app), never another organisation's, and
 * one notified in a rolled-back transaction reaches none.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { openTestDatabase } from '../test/test-database'
import { ChangeFeed } from './change-feed'
import { createNotifier } from './notifier'
import { ORG_MESSAGES_CHANNEL, RealtimeHub, type HubSocket, type SocketOwner } from './realtime-hub'
import { REALTIME_SERVER_MESSAGES } from './realtime-messages'

const database = await openTestDatabase()
const log = { warn: () => {} }
const notifier = createNotifier(database, log)
const hub = new RealtimeHub({
  db: database.db,
  changes: new ChangeFeed(notifier, log),
  notifier,
  log,
  check: (message) => void REALTIME_SERVER_MESSAGES[message.type].parse(message),
})
await hub.start()
afterAll(async () => {
  await hub.close()
  await notifier.close()
  await database.close()
})

/** A stand-in socket that keeps what it was sent. */
function socketOf(orgId: string, appId: string | null) {
  const sent: unknown[] = []
  const socket: HubSocket = {
    bufferedAmount: 0,
    send: (text: string) => void sent.push(JSON.parse(text)),
    close: () => {},
  }
  const owner: SocketOwner = {
    orgId,
    appId,
    userId: null,
    sessionId: null,
    credentialId: null,
    expiresAt: null,
  }
  hub.attach(socket, owner)
  return sent
}

const APP_X = '00000000-0000-4000-8000-00000000000a'
const APP_Y = '00000000-0000-4000-8000-00000000000b'

function cellsMessage(reviewId: string) {
  return {
    type: 'review_cells',
    reviewId,
    rowId: '00000000-0000-4000-8000-000000000001',
    cells: [{ id: '00000000-0000-4000-8000-000000000002', columnId: APP_Y, state: 'answered' }],
    done: 1,
    total: 4,
  }
}

const notifyIn = (tx: { execute: typeof database.db.execute }, payload: object) =>
  tx.execute(sql`SELECT pg_notify(${ORG_MESSAGES_CHANNEL}, ${JSON.stringify(payload)})`)

describe('organisation messages on the realtime channel', () => {
  it("reaches the organisation's sockets, an app-bound one only for its app, at the commit", async () => {
    const [whole, ofX, ofY, other] = [
      socketOf('org-a', null),
      socketOf('org-a', APP_X),
      socketOf('org-a', APP_Y),
      socketOf('org-b', null),
    ]
    const reviewId = '00000000-0000-4000-8000-0000000000f1'
    await database.db.transaction((tx) =>
      notifyIn(tx, { org_id: 'org-a', app_id: APP_X, message: cellsMessage(reviewId) }),
    )
    await expect.poll(() => whole.length, { timeout: 10_000 }).toBe(1)
    await expect.poll(() => ofX.length, { timeout: 10_000 }).toBe(1)
    expect(whole[0]).toEqual(cellsMessage(reviewId))
    expect(ofY).toEqual([])
    expect(other).toEqual([])
  })

  it('sends nothing for a rolled-back transaction, nor for a malformed message', async () => {
    const sent = socketOf('org-c', null)
    await database.db
      .transaction(async (tx) => {
        await notifyIn(tx, { org_id: 'org-c', app_id: null, message: cellsMessage(APP_X) })
        throw new Error('rolled back')
      })
      .catch(() => {})
    await database.db.transaction((tx) =>
      notifyIn(tx, { org_id: 'org-c', app_id: null, message: { type: 'review_cells' } }),
    )
    const marker = '00000000-0000-4000-8000-0000000000f2'
    await database.db.transaction((tx) =>
      notifyIn(tx, { org_id: 'org-c', app_id: null, message: cellsMessage(marker) }),
    )
    // The last, well-formed and committed, message arrives alone.
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(1)
    expect(sent[0]).toMatchObject({ reviewId: marker })
  })
})
