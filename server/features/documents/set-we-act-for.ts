import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { analyses, documents } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import { lockChangeableDocument } from './service'
import { recordAudit } from '../../audit/record-audit'
import type { AnalysisResult, Party } from '../../ai/analyzer/types'
import { partyWeActFor, storedWeActFor, type WeActFor } from '../../ai/analyzer/we-act-for'

/** How many of a document's newest analyses are read for its parties (a risks-only run has none). */
const ANALYSES_READ_FOR_PARTIES = 20

/**
 * Stores whom the firm acts for in document `id` (`null` clears it), with an audit entry
 * ('document.we_act_for', old and new choice), and returns the updated row. The choice must name
 * a party of the document's newest analysis that extracted parties: a party by its name (stored
 * as that party's extracted name) or a role some party holds (partyWeActFor). Members change
 * only the documents they added, admins and owners any (as renaming).
 *
 * Throws a 404 problem for a document that is not the org's, 403 `not_document_creator` for a
 * member's write to someone else's, 400 `unknown_party` when no analysed party matches (or the
 * document has no analysis with parties yet). Nothing is written when it throws.
 */
export async function setWeActFor(
  db: Db,
  principal: Principal,
  id: string,
  choice: WeActFor | null,
) {
  const row = await withTenant(db, principal, async (tx) => {
    const found = await lockChangeableDocument(tx, principal, id, 'change')
    if (!found) return undefined
    let stored: WeActFor | null = null
    if (choice) {
      const recent = await tx
        .select({ result: analyses.result })
        .from(analyses)
        .where(eq(analyses.documentId, id))
        .orderBy(desc(analyses.createdAt), desc(analyses.id))
        .limit(ANALYSES_READ_FOR_PARTIES)
      const parties = recent
        .map((a) => (a.result as AnalysisResult).keyTerms.parties)
        .find((list) => list.length > 0)
      stored = validChoice(choice, parties ?? [])
    }
    const [updated] = await tx
      .update(documents)
      .set({ weActFor: stored })
      .where(eq(documents.id, id))
      .returning()
    if (!updated) return undefined
    await recordAudit(
      tx,
      principal,
      'document.we_act_for',
      { type: 'document', id },
      { from: storedWeActFor(found.weActFor), to: stored },
    )
    return updated
  })
  if (!row) throw notFound('Document')
  return row
}

/** The choice as stored (a party by its extracted name), or a 400 `unknown_party` problem. */
function validChoice(choice: WeActFor, parties: readonly Party[]): WeActFor {
  if (parties.length === 0)
    throw new AppError(
      'unknown_party',
      'This document has no extracted parties yet: analyse it first, then choose whom we act for.',
    )
  const party = partyWeActFor(choice, parties)
  if (!party) {
    const known = parties.map((p) => p.name).join('; ')
    throw new AppError(
      'unknown_party',
      choice.kind === 'party'
        ? `No party of this document is called "${choice.party}". Its parties: ${known}.`
        : `No party of this document holds the role ${choice.role}. Its parties: ${known}.`,
    )
  }
  return choice.kind === 'party' ? { kind: 'party', party: party.name } : choice
}
