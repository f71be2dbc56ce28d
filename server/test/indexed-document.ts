/** Test factory: a pasted document whose passages the chunking job has indexed. */
import type { TestApp, TestMember } from './test-app'
import { pasteDocument } from './pasted-document'

/** Pastes `content` as `member` and waits until its passages are indexed; returns its id. */
export async function addIndexedDocument(
  t: TestApp,
  member: TestMember,
  title: string,
  content: string,
  appId?: string,
): Promise<string> {
  const id = await pasteDocument(t, member, title, content, appId)
  const deadline = Date.now() + 20_000
  for (;;) {
    const state = await t.app.inject({
      url: `/api/v1/orgs/${member.orgId}/documents/${id}/passages`,
      headers: member.headers,
    })
    const status = (state.json() as { status: string }).status
    if (status === 'indexed') return id
    if (status === 'failed' || Date.now() > deadline)
      throw new Error(`passages of ${title} not indexed: ${state.body}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
