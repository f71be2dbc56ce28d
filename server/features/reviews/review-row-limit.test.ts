import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { appOf } from '../../test/app-of'
import { finishedJob } from '../../test/finished-job'

// The cap is 10,000 documents: the same rule is checked at 3.
vi.mock('./schemas', async (original) => ({
  ...(await original<typeof import('./schemas')>()),
  MAX_REVIEW_ROWS: 3,
}))

let t: TestApp
let m: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  m = await signedInMember(t, 'Cap firm')
})
afterAll(() => t.close())

async function documentIn(appId: string, title: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/documents/text`,
    headers: m.headers,
    payload: { title, content: `${title}: the Supplier shall deliver the goods.`, appId },
  })
  expect(res.statusCode, res.body).toBe(201)
}

const createAppReview = (appId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/reviews`,
    headers: m.headers,
    payload: {
      name: 'App-wide',
      appId,
      rows: { source: 'app' },
      columns: [{ preset: 'term:parties' }],
    },
  })

describe("an app-wide review's row limit", () => {
  it('refuses with 413 review_too_large an app holding more documents than a review may', async () => {
    const appId = await appOf(t, m, 'cap-over')
    for (const title of ['One', 'Two', 'Three', 'Four']) await documentIn(appId, title)
    const res = await createAppReview(appId)
    expect(res.statusCode, res.body).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'review_too_large' })
  })

  it('stops adding the app’s new documents once the review holds the limit', async () => {
    const appId = await appOf(t, m, 'cap-grow')
    for (const title of ['One', 'Two']) await documentIn(appId, title)
    const made = await createAppReview(appId)
    expect(made.statusCode, made.body).toBe(201)
    const review = made.json() as { id: string; rows: number; fillJob: { id: string } }
    expect(review.rows).toBe(2)
    await finishedJob(t, m, review.fillJob.id)
    for (const title of ['Three', 'Four', 'Five']) await documentIn(appId, title)
    const read = async () =>
      (
        await t.app.inject({
          url: `/api/v1/orgs/${m.orgId}/reviews/${review.id}`,
          headers: m.headers,
        })
      ).json() as { rows: number; fill: { jobId: string } }
    const { fill } = await read()
    await finishedJob(t, m, fill.jobId)
    expect((await read()).rows).toBe(3)
  })
})
