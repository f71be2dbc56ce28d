/**
 * Property: export → import into another organisation gives back the same entities (name, type,
 * data, created_at), whatever they hold: quotes, commas, newlines (in data; a name or type is one
 * line), formula starts, Unicode.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { uploadForm } from '../../test/sample-files'
import { withTenant } from '../../db/tenant'
import { entities } from '../../db/schema'
import { toSingleLineText } from '../../http/single-line-text'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const tricky = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', "'", ',', ' ')
const text = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
    minLength: 1,
    maxLength,
  })
// JSON as jsonb keeps it: no NUL characters, and -0 read back as 0.
const data = fc
  .dictionary(text(10), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
  .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>)
  .filter((d) => !JSON.stringify(d).includes('\\u0000'))
// Names and types as the API stores them: cleaned like titles (issue 41), so one line; the data's
// strings still carry line breaks, quotes and commas through the CSV.
const line = (maxLength: number) =>
  text(maxLength)
    .map(toSingleLineText)
    .filter((s) => s !== '')
const entity = fc.record({ name: line(40), type: line(20), data })

type Row = { name: string; type: string; data: unknown; createdAt: string }

/** Every entity of `m`'s organisation, through the list API, in one fixed order. */
async function rowsOf(m: TestMember): Promise<Row[]> {
  const res = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/entities?limit=200&sort=created_at:asc,id:asc`,
    headers: m.headers,
  })
  return (res.json().items as Row[]).map(({ name, type, data, createdAt }) => ({
    name,
    type,
    data,
    createdAt,
  }))
}

it('round-trips arbitrary entities through CSV export and import', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(entity, { minLength: 1, maxLength: 6 }), async (batch) => {
      const [source, target] = [
        await signedInMember(t, 'Source'),
        await signedInMember(t, 'Target'),
      ]
      const principal = {
        orgId: source.orgId,
        userId: source.userId,
        role: 'owner',
        actorType: 'user',
      } as const
      await withTenant(t.database.db, principal, (tx) =>
        tx.insert(entities).values(batch.map((e) => ({ ...e, orgId: source.orgId }))),
      )
      const csv = await t.app.inject({
        url: `/api/v1/orgs/${source.orgId}/entities/export`,
        headers: source.headers,
      })
      const started = await t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${target.orgId}/entities/import`,
        headers: target.headers,
        payload: uploadForm(csv.rawPayload, 'export.csv'),
      })
      expect(started.statusCode, started.body).toBe(202)
      await expect
        .poll(
          async () =>
            (
              await t.app.inject({
                url: `/api/v1/orgs/${target.orgId}/jobs/${started.json().id}`,
                headers: target.headers,
              })
            ).json(),
          { timeout: 20_000 },
        )
        .toMatchObject({ status: 'succeeded', result: { imported: batch.length } })
      const [before, after] = [await rowsOf(source), await rowsOf(target)]
      const byContent = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort()
      expect(byContent(after)).toEqual(byContent(before))
    }),
    { numRuns: 25 },
  )
}, 120_000)
