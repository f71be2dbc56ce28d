/** Test factory: a pasted document whose passages the chunking job has indexed. */
import type { TestApp, TestMember } from './test-app'

/** Pastes `content` as `member` and waits until its passages are indexed; returns its id. */
export async function addIndexedDocument(
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
  if (res.statusCode !== 201) throw new Error(`creating ${title} failed: ${res.body}`)
  const id = (res.json() as { id: string }).id
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
