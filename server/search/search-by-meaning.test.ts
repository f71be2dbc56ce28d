import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { insertOrganisations, openTestDatabase } from '../test/test-database'
import type { Database } from '../db/client'
import { embedLocal } from '../ai/embedder/local/local-embedding'
import { wordTable } from '../ai/embedder/local/word-table'
import type { Embedder } from '../ai/embedder/types'
import { contentStems } from './paraphrase/content-words'
import { replaceChunks } from './index-document'
import { hybridSearch } from './hybrid-search'
import { REWORDED_NDA, REWORDED_QUESTIONS } from './reworded-questions'

/** The local vectors, in-process (no worker pool needed for a few passages). */
const embedder: Embedder = {
  id: 'local:test:384',
  dim: 384,
  embed: async (texts) => texts.map((text) => embedLocal(wordTable(), text)),
}
const principal: Principal = { orgId: 'sbm-a', userId: null, role: 'member', actorType: 'system' }

/** Stores `passages` as one document's embedded chunks; returns its id. */
async function storeDocument(database: Database, passages: readonly string[]): Promise<string> {
  return withTenant(database.db, principal, async (tx) => {
    const [row] = await tx
      .insert(documents)
      .values({ orgId: 'sbm-a', title: 'NDA', content: passages.join('\n') })
      .returning({ id: documents.id })
    let start = 0
    const chunks = passages.map((text) => {
      const chunk = { start, end: start + text.length, text }
      start += text.length + 1
      return chunk
    })
    await replaceChunks(tx, { orgId: 'sbm-a', appId: null, documentId: row?.id ?? '' }, chunks, {
      embedderId: embedder.id,
      vectors: await embedder.embed(passages),
    })
    return row?.id ?? ''
  })
}

/** A caption repeating the question's words, the clause it names, and other clauses. */
const HEADING_AND_CLAUSE = [
  '9. Governing Law',
  'This Agreement shall be construed in accordance with the laws of the State of Delaware.',
  'The Supplier shall deliver the goods to the Customer within thirty days of each order.',
  'Page 3 of 7',
  'The Customer shall pay each invoice within sixty days of its receipt.',
]

describe('search by meaning finds paraphrases (issue 48)', () => {
  let database: Database
  let nda: string
  let headed: string
  beforeAll(async () => {
    database = await openTestDatabase()
    await insertOrganisations(database, 'sbm-a')
    await database.db.execute(sql`alter table documents disable trigger user`)
    nda = await storeDocument(database, REWORDED_NDA)
    headed = await storeDocument(database, HEADING_AND_CLAUSE)
  }, 120_000)
  afterAll(() => database.close())

  const ordinalsFor = async (text: string, documentId: string, k: number) =>
    (await hybridSearch(database.db, embedder, principal, { text, k, scope: { documentId } })).map(
      (hit) => hit.ordinal,
    )

  it('the ten reworded questions share no content word with their answers', () => {
    for (const { question, answer } of REWORDED_QUESTIONS) {
      const shared = [...contentStems(question)].filter((stem) =>
        contentStems(REWORDED_NDA[answer] ?? '').has(stem),
      )
      expect(shared, question).toEqual([])
    }
  })

  it('finds the answer of at least nine of the ten reworded questions in its top eight', async () => {
    // Today's code (before decision 0117) found 7 of 10; the lexicon and structure ranking find
    // 10 with the CUAD-only word vectors and 9 with those that also saw NDAs ("take apart …
    // gadgets … built" then ranks the exclusions first).
    const missed: string[] = []
    for (const { question, answer } of REWORDED_QUESTIONS)
      if (!(await ordinalsFor(question, nda, 8)).includes(answer)) missed.push(question)
    expect(missed.length, missed.join(' | ')).toBeLessThanOrEqual(1)
  })

  it('a plain word finds the drafting word: "poach our staff" ranks the non-solicitation clause in the top three', async () => {
    expect((await ordinalsFor('Can they poach our staff?', nda, 8)).slice(0, 3)).toContain(21)
  })

  it('a plain phrase finds the drafting verb: "walk away from the deal" finds the termination clause', async () => {
    expect(await ordinalsFor('How can one side walk away from the deal early?', nda, 8)).toContain(
      19,
    )
  })

  it('a plain phrase finds the drafting verbs: "take apart" finds the reverse-engineering clause', async () => {
    expect(await ordinalsFor('Can we take apart their gadgets?', nda, 8)).toContain(9)
  })

  it('a caption repeating the question ranks below the clause it names, page footers last', async () => {
    const ordinals = await ordinalsFor('governing law', headed, 5)
    expect(ordinals.indexOf(0)).toBeGreaterThan(ordinals.indexOf(1))
    expect(ordinals.slice(3).sort()).toEqual([0, 3])
  })
})
