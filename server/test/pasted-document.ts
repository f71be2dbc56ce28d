/** Test factory: a document pasted as text through the documents API. */
import type { TestApp, TestMember } from './test-app'

/**
 * Pastes `content` titled `title` as `member` (into app `appId` when given) through
 * POST /documents/text; resolves to the new document's id. Throws with the response body when
 * the API does not answer 201.
 */
export async function pasteDocument(
  t: TestApp,
  member: TestMember,
  title: string,
  content: string,
  appId?: string,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/documents/text`,
    headers: member.headers,
    payload: { title, content, ...(appId ? { appId } : {}) },
  })
  if (res.statusCode !== 201) throw new Error(`pasting ${title} failed: ${res.body}`)
  return (res.json() as { id: string }).id
}
