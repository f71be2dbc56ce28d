import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp } from '../test/test-app'
import { uploadForm } from '../test/sample-files'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const orgFolders = async () => readdir(path.join(t.blobDir, 'orgs')).catch((): string[] => [])

describe('deleting an organisation', () => {
  it("removes the organisation's files and leaves other organisations' files", async () => {
    const [doomed, other] = [await signedInMember(t, 'Closing Firm'), await signedInMember(t)]
    for (const member of [doomed, other]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${member.orgId}/documents`,
        headers: member.headers,
        payload: uploadForm(new TextEncoder().encode('Engagement letter.'), 'letter.txt'),
      })
      expect(res.statusCode).toBe(201)
    }
    expect(await orgFolders()).toEqual(expect.arrayContaining([doomed.orgId, other.orgId]))

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/organization/delete',
      headers: doomed.headers,
      payload: { organizationId: doomed.orgId },
    })
    expect(res.statusCode).toBe(200)
    const left = await orgFolders()
    expect(left).not.toContain(doomed.orgId)
    expect(left).toContain(other.orgId)
  })
})
