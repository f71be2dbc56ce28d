import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import {
  buildTestApp,
  followLink,
  requestMagicLink,
  signedInMember,
  uniqueEmail,
  type TestApp,
} from '../test/test-app'
import { createLogger } from './logger'

/** A logger writing into a string, so tests can grep everything the app logged. */
function capturedLogger() {
  let text = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  return { logger: createLogger({ level: 'debug', stream }), text: () => text }
}

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** Makes the database refuse every insert into `table` with `message`, as a full disk would. */
async function refuseInserts(table: 'documents' | 'organization', message: string) {
  const name = sql.raw(`refuse_${table}`)
  await t!.database.db.execute(sql`
    create function ${name}() returns trigger language plpgsql as
      $$ begin raise exception '${sql.raw(message)}'; end $$`)
  await t!.database.db.execute(sql`
    create trigger ${name} before insert on ${sql.raw(table)}
      for each row execute function ${name}()`)
}

/** Whether `text` holds the session token of a `cookie` header. */
function holdsSessionToken(text: string, cookie: string): boolean {
  const value = decodeURIComponent(cookie.split('=')[1]!.split(';')[0]!)
  return text.includes(value.split('.')[0]!)
}

const DOCUMENT_TEXT = 'Privileged settlement memo: client will accept 4.2 million'

describe('the application log', () => {
  it('keeps sign-in tokens, session cookies and search text out of request lines', async () => {
    const log = capturedLogger()
    t = await buildTestApp({ logger: log.logger })
    const link = await requestMagicLink(t, uniqueEmail())
    const token = new URL(link).searchParams.get('token')!
    const signIn = await followLink(t, link)
    expect(signIn.statusCode).toBe(302)
    const member = await signedInMember(t, 'Log Firm')
    const search = await t.app.inject({
      url: `/api/v1/orgs/${member.orgId}/documents?q=${encodeURIComponent('Acme takeover')}&limit=5`,
      headers: member.headers,
    })
    expect(search.statusCode).toBe(200)

    const text = log.text()
    expect(text).toContain('/api/auth/magic-link/verify?token=[redacted]')
    expect(text).toContain('/documents?q=[redacted]&limit=[redacted]')
    expect(text).not.toContain(token)
    expect(text).not.toContain('Acme')
    expect(holdsSessionToken(text, member.headers.cookie)).toBe(false)
  })

  it('logs a failed database write without the document text or the cookie', async () => {
    const log = capturedLogger()
    t = await buildTestApp({ logger: log.logger })
    const member = await signedInMember(t, 'Failing Firm')
    await refuseInserts('documents', 'storage unavailable')

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${member.orgId}/documents/text`,
      headers: member.headers,
      payload: { title: 'Settlement memo', content: DOCUMENT_TEXT },
    })
    expect(res.statusCode).toBe(500)
    expect(res.body).not.toContain('4.2 million')

    const text = log.text()
    expect(text).toContain('request failed')
    expect(text).toContain('storage unavailable')
    expect(text).not.toContain('4.2 million')
    expect(text).not.toContain('Settlement memo')
    expect(holdsSessionToken(text, member.headers.cookie)).toBe(false)
  })

  it("logs better-auth's failures through the app's log without the values it tried to store", async () => {
    const log = capturedLogger()
    t = await buildTestApp({ logger: log.logger })
    const member = await signedInMember(t, 'First Firm')
    await refuseInserts('organization', 'organisation store unavailable')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/organization/create',
      headers: member.headers,
      payload: { name: 'Confidential Merger Vehicle', slug: 'confidential-merger-vehicle' },
    })
    expect(res.statusCode).toBe(500)
    const text = log.text()
    expect(text).toContain('request failed')
    expect(text).toContain('organisation store unavailable')
    expect(text).not.toContain('Confidential Merger')
    expect(text).not.toContain('confidential-merger')
  })
})
