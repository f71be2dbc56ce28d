import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { user } from '../db/schema'
import {
  buildTestApp,
  followLink,
  signedInMember,
  TEST_ORIGIN,
  uniqueEmail,
  type TestApp,
  type TestMember,
} from '../test/test-app'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Names Chambers')
})
afterAll(() => t.close())

async function storedName(userId: string) {
  const [row] = await t.database.db
    .select({ name: user.name })
    .from(user)
    .where(eq(user.id, userId))
  return row?.name
}

describe('user names are cleaned like titles', () => {
  it('removes control and bidi characters from a name changed through update-user', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: alice.headers,
      payload: { name: 'Alice\u0007 Smith\u202E\r\nQC\u2066' },
    })
    expect(res.statusCode).toBe(200)
    expect(await storedName(alice.userId)).toBe('Alice Smith QC')
  })

  it('removes them from the name given when asking for a first sign-in link', async () => {
    const email = uniqueEmail('named')
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email, name: 'Mallory\u202Egnp.exe\u0000', callbackURL: '/dashboard' },
    })
    // A NUL is refused outright (nul_character); without it the name is cleaned.
    expect(asked.statusCode).toBe(400)
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email, name: 'Mallory\u202Egnp.exe\u0085', callbackURL: '/dashboard' },
    })
    expect(again.statusCode).toBe(200)
    const mail = [...t.mailer.outbox].reverse().find((m) => m.to === email)
    const signedIn = await followLink(t, mail!.link!)
    expect(signedIn.statusCode).toBe(302)
    const [row] = await t.database.db
      .select({ name: user.name })
      .from(user)
      .where(eq(user.email, email))
    expect(row?.name).toBe('Mallorygnp.exe')
  })
})
