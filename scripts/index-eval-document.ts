/**
 * One evaluation NDA stored and indexed as the product does (a document row in the 'eval'
 * organisation, its passages embedded by the configured embedder and saved by replaceChunks), for
 * eval:retrieval and eval:nli; returns the document's id. Throws when the insert returns no row.
 */
import type { Embedder } from '../server/ai/embedder/types'
import type { Db } from '../server/db/client'
import { documents } from '../server/db/schema'
import { withTenant, type Principal } from '../server/db/tenant'
import type { TextChunk } from '../server/search/chunk-text'
import { embedAll, replaceChunks } from '../server/search/index-document'

export async function indexEvalDocument(
  db: Db,
  embedder: Embedder,
  principal: Principal,
  nda: { id: number | string; text: string },
  passages: readonly TextChunk[],
): Promise<string> {
  const vectors = await embedAll(
    embedder,
    passages.map((p) => p.text),
  )
  return withTenant(db, principal, async (tx) => {
    const [row] = await tx
      .insert(documents)
      .values({ orgId: 'eval', title: `NDA ${nda.id}`, content: nda.text })
      .returning({ id: documents.id })
    if (!row) throw new Error('insert returned no row')
    await replaceChunks(tx, { orgId: 'eval', appId: null, documentId: row.id }, passages, {
      embedderId: embedder.id,
      vectors,
    })
    return row.id
  })
}
