import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { insertOrganisations, openTestDatabase } from '../test/test-database'
import type { Database } from '../db/client'
import { embedLocal } from '../ai/embedder/local/local-embedding'
import { wordTable } from '../ai/embedder/local/word-table'
import type { Embedder } from '../ai/embedder/types'
import { replaceChunks } from './index-document'
import { fuseRanks, RRF_K } from './fuse-ranks'
import { expandQuery } from './query-expansion'
import { wordNet } from './paraphrase/wordnet-synonyms'
import {
  hybridSearch,
  hybridSearchInOneStatement,
  hybridSearchOnTwoConnections,
} from './hybrid-search'

const PASSAGES = [
  'The Receiving Party shall return or destroy all copies of the Confidential Information.',
  'This Agreement shall be governed by the laws of the State of New York.',
  'Either party may terminate this Agreement upon thirty days written notice.',
  'The Supplier shall indemnify the Customer against all third party claims.',
]

/** The local vectors, in-process (no worker pool needed for a few passages). */
const embedder: Embedder = {
  id: 'local:test:384',
  dim: 384,
  embed: async (texts) => texts.map((text) => embedLocal(wordTable(), text)),
}
const principal: Principal = { orgId: 'hs-a', userId: null, role: 'member', actorType: 'system' }

/** Stores `passages` as one document's chunks (embedded when `vectors`); returns its id. */
async function storeDocument(
  database: Database,
  title: string,
  passages: readonly string[],
  vectors: boolean,
): Promise<string> {
  return withTenant(database.db, principal, async (tx) => {
    const [row] = await tx
      .insert(documents)
      .values({ orgId: 'hs-a', title, content: passages.join(' ') })
      .returning({ id: documents.id })
    let start = 0
    const chunks = passages.map((text) => {
      const chunk = { start, end: start + text.length, text }
      start += text.length + 1
      return chunk
    })
    await replaceChunks(
      tx,
      { orgId: 'hs-a', appId: null, documentId: row?.id ?? '' },
      chunks,
      vectors ? { embedderId: embedder.id, vectors: await embedder.embed(passages) } : null,
    )
    return row?.id ?? ''
  })
}

async function seed(database: Database, vectors: boolean): Promise<void> {
  await insertOrganisations(database, 'hs-a')
  await database.db.execute(sql`alter table documents disable trigger user`)
  await storeDocument(database, 'Terms', PASSAGES, vectors)
}

describe('hybrid search in one statement', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
    await seed(database, true)
  }, 120_000)
  afterAll(() => database.close())

  it('fuses both halves: a passage first in both lists scores 2 / 61, with its document', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'governed by the laws of New York',
      k: 3,
    })
    expect(hits).toHaveLength(3)
    expect(hits[0]).toMatchObject({ content: PASSAGES[1], documentTitle: 'Terms', ordinal: 1 })
    expect(hits[0]?.score).toBeCloseTo(2 / 61, 10)
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a))
  })

  it('walks an HNSW graph of m = 24 (migration search-hnsw-m24, decision 26)', async () => {
    const res = await database.db.execute(
      sql`select reloptions from pg_class where relname = 'doc_chunks_embedding_idx'`,
    )
    const [row] = (res as unknown as { rows: Array<{ reloptions: string[] }> }).rows
    expect(row?.reloptions).toEqual(['m=24', 'ef_construction=64'])
  })

  it('returns k passages through the vector half when no word matches', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, { text: 'zzqx', k: 4 })
    expect(hits).toHaveLength(4)
  })
})

/** Words in every passage ("confidential information") against words in one ("reverse engineer"). */
const COMMON_AND_RARE = [
  'Confidential Information means confidential information, including confidential business information and confidential technical information.',
  'The Recipient shall not reverse engineer any sample.',
  'Confidential Information excludes information already known to the Recipient.',
  'The Recipient shall protect Confidential Information with reasonable care.',
]

/** The query's own word ("destroy"), a WordNet synonym of it ("demolish"), and neither. */
const OWN_WORDS_AND_SYNONYMS = [
  'The Contractor shall demolish the old warehouse.',
  'The Contractor shall keep the site tidy.',
  'The Contractor shall destroy the old records.',
]

/** "fee" once, three times and twice, each passage with the same four distinct lexemes. */
const TERM_FREQUENCIES = [
  'The fee is due, fixed and final.',
  'The fee is due, the fee is fixed, the fee is final.',
  'The fee is due, the fee is fixed and final.',
]

/**
 * "pay records": "record" is a query word and also a word of its synonym "record book"; "pay" is
 * a query word only. The short passage has "records", the long one "pay": weighed as a query word
 * (1), "records" puts the short one first; weighed as a synonym (SYNONYM_WEIGHT), the long one
 * would come first.
 */
const OWN_WORD_ALSO_A_SYNONYM = [
  'Records of all sales.',
  'The Supplier shall pay the sales ledger.',
]

/** A provision stated as a lead-in and list items (decision 85). */
const LEAD_IN_AND_ITEMS = [
  'The Recipient shall keep the information secure.',
  'Each party may disclose the information of the other party:',
  '(a) to its employees who need to know it;',
  '(b) where disclosure is required by law.',
]

describe('hybrid search without pgvector', () => {
  let database: Database
  let commonAndRare = ''
  let synonymsOnly = ''
  let leadInAndItems = ''
  let termFrequencies = ''
  let ownAndSynonym = ''
  beforeAll(async () => {
    database = await openTestDatabase()
    await database.db.execute(sql`alter table doc_chunks drop column embedding`)
    await seed(database, false)
    commonAndRare = await storeDocument(database, 'NDA', COMMON_AND_RARE, false)
    synonymsOnly = await storeDocument(database, 'Duties', OWN_WORDS_AND_SYNONYMS, false)
    leadInAndItems = await storeDocument(database, 'Disclosure', LEAD_IN_AND_ITEMS, false)
    termFrequencies = await storeDocument(database, 'Fees', TERM_FREQUENCIES, false)
    ownAndSynonym = await storeDocument(database, 'Records', OWN_WORD_ALSO_A_SYNONYM, false)
  }, 120_000)

  it('brings a list item’s lead-in along, right after the item, with the item’s score', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'employees who need to know',
      k: 3,
      scope: { documentId: leadInAndItems },
    })
    // (b) may follow: 'need' has the WordNet synonym 'require'.
    expect(hits.slice(0, 2).map((h) => h.content)).toEqual([
      LEAD_IN_AND_ITEMS[2],
      LEAD_IN_AND_ITEMS[1],
    ])
    expect(hits[1]?.score).toBe(hits[0]?.score)
    expect(hits[1]).toMatchObject({ documentTitle: 'Disclosure', ordinal: 1 })
  })

  it('weighs a word by its rarity (BM25): the one passage with the rare words comes first', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'reverse engineer confidential information',
      k: 4,
      scope: { documentId: commonAndRare },
    })
    expect(hits.map((h) => h.ordinal)).toHaveLength(4)
    expect(hits[0]?.content).toBe(COMMON_AND_RARE[1])
  })
  afterAll(() => database.close())

  it('counts each occurrence of a query word (BM25 term frequency): three, then two, then one', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'fee',
      k: 3,
      scope: { documentId: termFrequencies },
    })
    expect(hits.map((h) => h.content)).toEqual([
      TERM_FREQUENCIES[1],
      TERM_FREQUENCIES[2],
      TERM_FREQUENCIES[0],
    ])
  })

  it('finds a passage by a WordNet synonym of a query word, ranked below the query’s own word', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'destroy',
      k: 3,
      scope: { documentId: synonymsOnly },
    })
    expect(hits.map((h) => h.content)).toEqual([
      OWN_WORDS_AND_SYNONYMS[2],
      OWN_WORDS_AND_SYNONYMS[0],
    ])
  })

  it('weighs a query word that is also in a synonym as a query word', async () => {
    expect(expandQuery('pay records', await wordNet()).split(' ')).toContain('record')
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'pay records',
      k: 2,
      scope: { documentId: ownAndSynonym },
    })
    expect(hits.map((h) => h.content)).toEqual(OWN_WORD_ALSO_A_SYNONYM)
  })

  it('ranks by full text alone', async () => {
    const hits = await hybridSearch(database.db, embedder, principal, {
      text: 'indemnify claims',
      k: 5,
    })
    expect(hits.map((h) => h.content)).toEqual([PASSAGES[3]])
    expect(hits[0]?.score).toBeCloseTo(1 / 61, 10)
  })
})

describe('hybrid search on two connections against one statement', () => {
  let database: Database
  const documentIds: string[] = []
  beforeAll(async () => {
    database = await openTestDatabase()
    await seed(database, true)
    for (const [title, passages] of [
      ['NDA', COMMON_AND_RARE],
      ['Duties', OWN_WORDS_AND_SYNONYMS],
      ['Disclosure', LEAD_IN_AND_ITEMS],
      ['Fees', TERM_FREQUENCIES],
    ] as const)
      documentIds.push(await storeDocument(database, title, passages, true))
  }, 120_000)
  afterAll(() => database.close())

  it('returns the same hits, scores and order (fusion in JavaScript and in SQL)', async () => {
    const queries = [
      'governed by the laws of New York',
      'reverse engineer confidential information',
      'destroy the records',
      'employees who need to know',
      'the fee is due',
      'zzqx',
      'party',
    ]
    let compared = 0
    for (const text of queries)
      for (const k of [1, 3, 10])
        for (const scope of [{}, { documentId: documentIds[0] }, { documentIds }]) {
          const query = { text, k, scope }
          const inOne = await hybridSearchInOneStatement(database.db, embedder, principal, query)
          const onTwo = await hybridSearchOnTwoConnections(database.db, embedder, principal, query)
          expect(onTwo, `${text} k=${k} ${JSON.stringify(scope)}`).toEqual(inOne)
          compared += inOne.length
        }
    // Not vacuous: the searches found passages.
    expect(compared).toBeGreaterThan(100)
    const all = await hybridSearchOnTwoConnections(database.db, embedder, principal, {
      text: 'zzqx',
      k: 3,
    })
    expect(all.map((h) => h.score)).toEqual([1 / 61, 1 / 62, 1 / 63])
  })

  it('fuses ranks in JavaScript as the SQL fusion does, ties broken by uuid order', async () => {
    // Each id ranks i in one list and n + 1 - i in the other: every score but the middle one ties.
    const ids = Array.from({ length: 9 }, () => crypto.randomUUID())
    const lists = [
      ids.map((id, i) => ({ id, r: i + 1 })),
      ids.map((id, i) => ({ id, r: ids.length - i })),
    ]
    const res = await database.db.execute(
      sql`select id::text, sum(1.0::float8 / (${RRF_K} + r)) as score
          from (${sql.join(
            lists.flat().map(({ id, r }) => sql`select ${id}::uuid as id, ${r}::bigint as r`),
            sql` union all `,
          )}) ranked
          group by id order by score desc, id limit 6`,
    )
    const inSql = (res as unknown as { rows: Array<{ id: string; score: number }> }).rows
    expect(fuseRanks(lists, 6)).toEqual(inSql.map((row) => ({ ...row, score: Number(row.score) })))
    expect(new Set(inSql.map((row) => row.score)).size).toBeLessThan(6)
  })

  it('keeps each half confined to the principal’s organisation', async () => {
    const other: Principal = { ...principal, orgId: 'hs-b' }
    await insertOrganisations(database, 'hs-b')
    const hits = await hybridSearchOnTwoConnections(database.db, embedder, other, {
      text: 'governed by the laws of New York',
      k: 5,
    })
    expect(hits).toEqual([])
  })
})
