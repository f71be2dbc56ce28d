/**
 * Text PostgreSQL cannot store or compare (a NUL character, an unpaired UTF-16 surrogate) sent
 * to the API gets a 400 problem naming why, never a 500 (house rule 5): from filters, search
 * terms and messages the database refuses (SQLSTATE 22021 / 22P05), and from one-line titles,
 * which drop such characters as they drop other controls.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember } from '../test/test-app'

const t = await buildTestApp()
afterAll(() => t.close())
const member = await signedInMember(t, 'Unstorable Text LLP')
const org = `/api/v1/orgs/${member.orgId}`

const expectRefused = (res: {
  statusCode: number
  headers: Record<string, unknown>
  body: string
}) => {
  expect(res.statusCode, res.body).toBe(400)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(JSON.parse(res.body)).toMatchObject({
    code: 'nul_character',
    detail: 'Text may not contain NUL characters or unpaired surrogates.',
  })
}

describe('text the database cannot hold', () => {
  it.each([
    ['the events kind filter', `${org}/events?kind=a%00b`],
    ['the audit action filter', `${org}/audit?action=a%00b`],
    ['the jobs subject filter', `${org}/jobs?subjectId=a%00b`],
  ])('a NUL in %s is a 400 problem', async (_, url) => {
    expectRefused(await t.app.inject({ url, headers: member.headers }))
  })

  it('a NUL in a search is a 400 problem', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${org}/search`,
      headers: member.headers,
      payload: { query: 'indemnity\u0000clause' },
    })
    expectRefused(res)
  })

  it('an unpaired surrogate in a new title is dropped, as controls are', async () => {
    const pasted = await t.app.inject({
      method: 'POST',
      url: `${org}/documents/text`,
      headers: member.headers,
      payload: { title: 'Lease', content: 'The tenant shall pay rent monthly.' },
    })
    expect(pasted.statusCode, pasted.body).toBe(201)
    const { id } = pasted.json() as { id: string }
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `${org}/documents/${id}`,
      headers: member.headers,
      payload: { title: 'Lease \ud800of Unit 4' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.json()).toMatchObject({ title: 'Lease of Unit 4' })
  })
})
