/**
 * Hybrid passage search (decisions 0017, 0026): pgvector cosine distance over `doc_chunks.embedding`
 * (HNSW, with iterative scans so a tenant filter still yields k rows) and PostgreSQL full-text
 * rank (Okapi BM25 over the English tsvector, any query word or WordNet synonym of one, at most
 * 1,000 matches ranked; decisions 70 and 76), fused
 * by reciprocal rank fusion, score = Σ 1 / (60 + rank) (Cormack, Clarke & Büttcher, SIGIR 2009);
 * a hit that is an item of an enumerated list then brings its lead-in along (decision 85,
 * with-list-lead-ins.ts). On PostgreSQL the halves run at once on two connections and are fused
 * in JavaScript (decision 0092); on PGlite in one statement. Always inside the caller's
 * tenant transactions (RLS) and also filtered on its org explicitly, so the planner uses the
 * tenant index; optionally to one app or document. Only embeddings of the configured embedder are
 * compared (`embedder = id`), never vectors of another engine.
 */
import { sql, type SQL } from 'drizzle-orm'
import pg from 'pg'
import type { Db } from '../db/client'
import { withTenant, withTenantReads, type Principal, type Tx } from '../db/tenant'
import type { Embedder } from '../ai/embedder/types'
import { vectorColumn, vectorLiteral } from './vector-column'
import { expandQuery } from './query-expansion'
import { wordNet } from './paraphrase/wordnet-synonyms'
import { LEAD_IN_REACH, withListLeadIns } from './with-list-lead-ins'
import { fuseRanks, RRF_K, type RankedId } from './fuse-ranks'
import { rankByStructure } from './rank-by-structure'
import { RERANK_POOL, rerankByReading } from './rerank-by-reading'

/**
 * Full-text matches ranked at most per query: a question made of common words would otherwise
 * rank most of the organisation's passages (the vector half still covers all). 1,000 rather than
 * 2,000 saved ~2 ms of the 100k bench's ~20 (decision 26).
 */
const TEXT_SCAN_CAP = 1000
/**
 * hnsw.ef_search: candidates the graph walk keeps. At 100k bench passages recall@10 against an
 * exact scan was 0.953 at 80, 0.962 at 100 and 0.977 at 150 with m = 24 (m = 16 needed 150 for
 * 0.960), and the walk's time grows with it (decision 26).
 */
const EF_SEARCH = 100

export interface SearchScope {
  /** One app of the organisation; absent = all of it. */
  appId?: string
  /** One document; absent = all. */
  documentId?: string
  /** A chosen set of documents (the assistant's scope); absent = all, empty = none. */
  documentIds?: readonly string[]
}

/** A hybrid search's question: its text, the hits wanted (k) and where to look. */
export interface HybridQuery {
  text: string
  k: number
  scope?: SearchScope
}

export interface PassageHit {
  id: string
  documentId: string
  documentTitle: string
  appId: string | null
  ordinal: number
  content: string
  start: number
  end: number
  /** The fused score (hybrid) or the cosine similarity (vector only). */
  score: number
}

function scopeSql(principal: Principal, scope: SearchScope): SQL {
  return sql.join(
    [
      sql`c.org_id = ${principal.orgId}`,
      scope.appId ? sql`c.app_id = ${scope.appId}` : undefined,
      scope.documentId ? sql`c.document_id = ${scope.documentId}` : undefined,
      scope.documentIds
        ? sql`c.document_id in (${
            scope.documentIds.length > 0
              ? sql.join(
                  scope.documentIds.map((id) => sql`${id}::uuid`),
                  sql`, `,
                )
              : sql`null`
          })`
        : undefined,
    ].filter((part): part is SQL => part !== undefined),
    sql` and `,
  )
}

async function rows<T>(tx: Db | Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

/**
 * The search's settings for this transaction: iterative HNSW scans (so a filter still yields
 * `limit` rows) and EF_SEARCH when it walks the graph (`vector`), and never a synchronised
 * sequential scan. The capped text half ranks the first TEXT_SCAN_CAP matches its sequential scan
 * reads; in a table larger than a quarter of shared_buffers PostgreSQL starts each scan where
 * another one is (synchronize_seqscans), so one question got other matches each time (100k
 * passages at 128 MB, decision 90). No test: the suite's tables are far below that size.
 * One statement, so one more bind and execute rather than one per setting.
 */
function searchSettingsSql(limit: number, vector = true): SQL {
  return vector
    ? sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', ${String(Math.max(EF_SEARCH, limit))}, true), set_config('synchronize_seqscans', 'off', true)`
    : sql`select set_config('synchronize_seqscans', 'off', true)`
}

async function searchSettings(tx: Tx, limit: number): Promise<void> {
  await tx.execute(searchSettingsSql(limit))
}

/** Nearest passages to `vector` by cosine distance: [id, similarity], best first. */
async function vectorCandidates(
  tx: Tx,
  principal: Principal,
  scope: SearchScope,
  embedderId: string,
  vector: readonly number[],
  limit: number,
) {
  await searchSettings(tx, limit)
  const q = vectorLiteral(vector)
  // relaxed_order may return rows slightly out of order: re-sort the materialised candidates.
  return rows<{ id: string; similarity: number }>(
    tx,
    sql`with v as materialized (
          select c.id, c.embedding <=> ${q}::vector as distance from doc_chunks c
          where ${scopeSql(principal, scope)} and c.embedder = ${embedderId}
          order by c.embedding <=> ${q}::vector limit ${limit})
        select id, 1 - distance as similarity from v order by distance`,
  )
}

async function hydrate(
  tx: Tx,
  scored: Array<{ id: string; score: number }>,
): Promise<PassageHit[]> {
  if (scored.length === 0) return []
  const found = await rows<Omit<PassageHit, 'score'>>(
    tx,
    sql`select c.id, c.document_id as "documentId", d.title as "documentTitle", c.app_id as "appId",
               c.ordinal, c.content, c.start_offset as start, c.end_offset as end
        from doc_chunks c join documents d on d.id = c.document_id
        where c.id in (${sql.join(
          scored.map((s) => sql`${s.id}::uuid`),
          sql`, `,
        )})`,
  )
  const byId = new Map(found.map((row) => [row.id, row]))
  return scored.flatMap(({ id, score }) => {
    const row = byId.get(id)
    return row ? [{ ...row, score }] : []
  })
}

/** The vector half as a subquery: [id, r] with r = 1 for the nearest passage. */
function vectorRanks(
  principal: Principal,
  scope: SearchScope,
  embedderId: string,
  vector: readonly number[],
  limit: number,
): SQL {
  const q = vectorLiteral(vector)
  return sql`select v.id, row_number() over (order by v.distance, v.id) as r from (
      select c.id, c.embedding <=> ${q}::vector as distance from doc_chunks c
      where ${scopeSql(principal, scope)} and c.embedder = ${embedderId}
      order by c.embedding <=> ${q}::vector limit ${limit}) v`
}

/**
 * Okapi BM25's k1 and b (Robertson & Zaragoza 2009). b = 0.3 rather than the usual 0.75: contract
 * passages that are long are long because they hold more clauses, not because they repeat a word
 * (ContractNLI dev, decision 70: b 0.3 0.619, 0.75 0.608; k1 0.9–2 within 0.004).
 */
const BM25_K1 = 1.2
const BM25_B = 0.3

/**
 * The weight of a WordNet synonym's term against 1 for the query's own words: below them, so a
 * passage using the query's words still wins, yet high enough to lift a passage that says the
 * same thing in other words (ContractNLI dev, decision 76: 0.5 / 0.8 / 1 gave recall@5 0.625 /
 * 0.630 / 0.629 and paraphrase recall@8 0.487 / 0.522 / 0.532).
 */
const SYNONYM_WEIGHT = 0.8

/**
 * The text half as a subquery: [id, r], passages matching any word of `text` or of `synonyms`,
 * ranked by BM25 over TEXT_SCAN_CAP matches, each term weighted 1 (a lexeme of `text`) or
 * SYNONYM_WEIGHT (one of `synonyms` only). Passages with a word of `text` fill the cap first (the
 * append stops reading once it is full), so synonyms never crowd out the query's own words in a
 * large organisation, and cost nothing more there. Document frequencies and the mean length are taken
 * over those matches, not the whole scope (counting the scope would read every passage of a large
 * organisation); `length(tsv)` counts distinct lexemes. Each match's tsvector is cut to the query's
 * lexemes before it is unnested, which also gives each its weight: `setweight` marks the synonyms'
 * lexemes B and then the query's own A (so a word that is both counts as the query's), and
 * `ts_filter` keeps A and B (`tsv` holds only D, to_tsvector's default). A passage thus yields ~3
 * rows rather than its ~25 lexemes, with the same term frequencies (decision 90). The matches keep
 * only that cut and their length, and document frequencies are a window count over the unnested
 * terms: no join to a table of the query's lexemes, 20 % less of the half's CPU at 100k passages
 * than decision 90's form, same ranks (decision 0096). The window's byte order (collate "C") is
 * the tsvector's own, so each passage's terms are summed in one order whatever the database's
 * collation: float addition is not associative, and two passages that tie must tie exactly.
 */
function textRanks(
  principal: Principal,
  scope: SearchScope,
  text: string,
  synonyms: string,
  limit: number,
): SQL {
  return sql`with q as (
        select replace(plainto_tsquery('english', ${text})::text, ' & ', ' | ')::tsquery as own,
               replace(plainto_tsquery('english', ${synonyms})::text, ' & ', ' | ')::tsquery as syn,
               tsvector_to_array(to_tsvector('english', ${text})) as own_lexemes,
               tsvector_to_array(to_tsvector('english', ${synonyms})) as synonym_lexemes),
      m as materialized (
        select s.id, length(s.tsv) as dl,
               ts_filter(setweight(setweight(s.tsv, 'B', q.synonym_lexemes), 'A', q.own_lexemes),
                         '{a,b}') as terms
        from q, ((select c.id, c.tsv from doc_chunks c, q
                  where ${scopeSql(principal, scope)} and c.tsv @@ q.own limit ${TEXT_SCAN_CAP})
                 union all
                 (select c.id, c.tsv from doc_chunks c, q
                  where ${scopeSql(principal, scope)} and c.tsv @@ q.syn and not c.tsv @@ q.own
                  limit ${TEXT_SCAN_CAP})
                 limit ${TEXT_SCAN_CAP}) s),
      n as (select count(*)::float8 as total, avg(dl)::float8 as avgdl from m),
      t as (select m.id, array_length(u.positions, 1)::float8 as tf, m.dl::float8 as dl,
                   case u.weights[1] when 'A' then 1::float8 else ${SYNONYM_WEIGHT}::float8 end as weight,
                   count(*) over (partition by u.lexeme collate "C")::float8 as df
            from m cross join lateral unnest(m.terms) u)
    select s.id, row_number() over (order by s.score desc, s.id) as r from (
      select t.id, sum(t.weight * ln(1 + (n.total - t.df + 0.5) / (t.df + 0.5)) * t.tf * ${BM25_K1 + 1}
                       / (t.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * t.dl / n.avgdl))) as score
      from t cross join n group by t.id) s
    order by s.score desc, s.id limit ${limit}`
}

/**
 * hybridSearch's two halves for `query` (each a subquery of [id, r], r = 1 for the best; no
 * vector half without `vector`) and the transaction settings they need, run before them.
 * Exported for bench/server-search.ts, which times each half alone.
 */
export async function searchHalves(
  principal: Principal,
  scope: SearchScope,
  embedderId: string,
  query: { text: string; k: number },
  vector: readonly number[] | undefined,
): Promise<{ vector?: SQL; text: SQL; settings: SQL[] }> {
  const limit = candidates(query.k)
  const synonyms = expandQuery(query.text, await wordNet())
  return {
    vector: vector ? vectorRanks(principal, scope, embedderId, vector, limit) : undefined,
    text: textRanks(principal, scope, query.text, synonyms, limit),
    settings: [searchSettingsSql(limit, vector !== undefined)],
  }
}

/** Candidates each half ranks for `k` hits: RRF needs more than the k it keeps from each. */
function candidates(k: number): number {
  return Math.max(k * 4, 40)
}

/**
 * The statement reading the passages of `fused` (a subquery of [id, score], at most k rows) and
 * the passages before each (for their lead-ins, `context`), with their documents: hits first,
 * best first. The reach's bounds are columns of `shown`, so the lead-in lookup's comparisons are
 * leakproof and RLS lets the (document_id, ordinal) index use them; `ordinal - 6` written in the
 * join is int4mi, not leakproof, and PostgreSQL then read each hit's whole document and filtered
 * it (100 rows a hit at 100k passages; decision 0096).
 */
function passagesSql(fused: SQL): SQL {
  return sql`with fused as (${fused}),
    shown as (select f.id, c.document_id, d.title, c.app_id, c.ordinal, c.content,
                     c.start_offset, c.end_offset, f.score,
                     c.ordinal - ${LEAD_IN_REACH} as reach_from, c.ordinal - 1 as reach_to
              from fused f join doc_chunks c on c.id = f.id join documents d on d.id = c.document_id)
    select false as context, id, document_id as "documentId", title as "documentTitle",
           app_id as "appId", ordinal, content, start_offset as start, end_offset as end, score
    from shown
    union all
    select true, p.id, p.document_id, s.title, p.app_id, p.ordinal, p.content, p.start_offset,
           p.end_offset, 0
    from shown s join doc_chunks p on p.document_id = s.document_id
      and p.ordinal between s.reach_from and s.reach_to
    order by context, score desc, id`
}

type PassageRow = PassageHit & { context: boolean }

/**
 * Fused hits read for `k` shown: furniture (headings, captions, footers) moves below the clauses
 * (rankByStructure), so k spare hits let a clause take a heading's place (decision 0117), and the
 * reranker chooses from at least RERANK_POOL (decision 0130).
 */
function hitsRead(k: number): number {
  return Math.max(2 * k, RERANK_POOL)
}

/**
 * The hits of passagesSql's rows for `query`, reordered by learned relevance (rerankByReading,
 * decision 0130), furniture after clauses (rankByStructure), each list item followed by its
 * lead-in, cut to `k`.
 */
function withLeadIns(query: string, rows: PassageRow[], k: number): PassageHit[] {
  const strip = ({ context: _, ...hit }: PassageRow): PassageHit => hit
  return withListLeadIns(
    rankByStructure(rerankByReading(query, rows.filter((h) => !h.context).map(strip))),
    rows.filter((h) => h.context).map(strip),
    k,
  )
}

/**
 * The `k` best passages for `text` in the principal's organisation (and `scope`): hybrid when
 * the database has vectors, full text alone otherwise; each hit that is a list item is followed by
 * its list's lead-in (with the hit's score), the whole cut to `k`. On PostgreSQL with vectors the
 * halves run at once on two pooled connections (hybridSearchOnTwoConnections); on embedded
 * PGlite, which has one connection, and without vectors, in one statement
 * (hybridSearchInOneStatement). Both return the same hits.
 * WordNet, for the query's synonyms, is read by the server at start (server/main.ts); elsewhere
 * (tests, scripts) the first search of the process waits for it (~1 s idle, wordnet-synonyms.ts).
 */
export async function hybridSearch(
  db: Db,
  embedder: Embedder,
  principal: Principal,
  query: HybridQuery,
): Promise<PassageHit[]> {
  const pooled = (db as unknown as { $client?: unknown }).$client instanceof pg.Pool
  // Without vectors there is one half, which nothing would run beside.
  const twoHalves = pooled && (await vectorColumn(db)).dim === embedder.dim
  return (twoHalves ? hybridSearchOnTwoConnections : hybridSearchInOneStatement)(
    db,
    embedder,
    principal,
    query,
  )
}

/**
 * hybridSearch as one statement: both halves, the fusion, the passages before each hit (for
 * their lead-ins) and the passages' documents, with the settings in one message (each round trip
 * to PGlite costs parse, plan and copy; decision 32).
 */
export async function hybridSearchInOneStatement(
  db: Db,
  embedder: Embedder,
  principal: Principal,
  query: HybridQuery,
): Promise<PassageHit[]> {
  const scope = query.scope ?? {}
  const { dim } = await vectorColumn(db)
  const [vector] = dim === embedder.dim ? await embedder.embed([query.text]) : [undefined]
  const ranks = await searchHalves(principal, scope, embedder.id, query, vector)
  const halves = [ranks.vector, ranks.text].filter((half): half is SQL => half !== undefined)
  const [hits] = await withTenantReads(
    db,
    principal,
    (tx) => [
      rows<PassageRow>(
        tx,
        passagesSql(
          sql`with ranked as (${sql.join(
            halves.map((half) => sql`(${half})`),
            sql` union all `,
          )})
          select id, sum(1.0::float8 / (${RRF_K} + r)) as score from ranked
          group by id order by score desc, id limit ${hitsRead(query.k)}`,
        ),
      ),
    ],
    { settings: ranks.settings },
  )
  return withLeadIns(query.text, hits, query.k)
}

/**
 * hybridSearch as three tenant transactions, each confined by RLS as withTenantReads confines
 * it: the vector half and the text half at once (on PostgreSQL two pooled connections, so the
 * graph walk runs beside the BM25 ranking), fused in JavaScript (fuseRanks, the SQL fusion's
 * result), then the k hits read with their lead-ins and documents. The query's embedding and
 * WordNet synonyms are computed before either half is written (under 1 ms of this thread at
 * 100k passages, stems remembered; decision 0092). On PGlite the three run one after another.
 */
export async function hybridSearchOnTwoConnections(
  db: Db,
  embedder: Embedder,
  principal: Principal,
  query: HybridQuery,
): Promise<PassageHit[]> {
  const scope = query.scope ?? {}
  const limit = candidates(query.k)
  const ranked = (half: SQL, settings: SQL) =>
    withTenantReads(db, principal, (tx) => [rows<RankedId>(tx, half)], {
      settings: [settings],
    }).then(([list]) => list)
  const { dim } = await vectorColumn(db)
  const vectorHalf =
    dim === embedder.dim
      ? embedder
          .embed([query.text])
          .then(([vector]) =>
            ranked(
              vectorRanks(principal, scope, embedder.id, vector ?? [], limit),
              searchSettingsSql(limit),
            ),
          )
      : Promise.resolve([])
  const synonyms = expandQuery(query.text, await wordNet())
  const textHalf = ranked(
    textRanks(principal, scope, query.text, synonyms, limit),
    searchSettingsSql(limit, false),
  )
  const fused = fuseRanks(await Promise.all([vectorHalf, textHalf]), hitsRead(query.k))
  if (fused.length === 0) return []
  const [hits] = await withTenantReads(db, principal, (tx) => [
    rows<PassageRow>(
      tx,
      passagesSql(
        sql`select * from unnest(${`{${fused.map((f) => f.id).join(',')}}`}::uuid[],
                                 ${`{${fused.map((f) => f.score).join(',')}}`}::float8[]) f(id, score)`,
      ),
    ),
  ])
  return withLeadIns(query.text, hits, query.k)
}

/**
 * The `k` passages nearest to `vector` (cosine similarity, best first) in the principal's
 * organisation and `scope`: the spec's `semantic_search`. Returns [] when the database has no
 * pgvector.
 */
export async function searchByMeaning(
  db: Db,
  embedderId: string,
  principal: Principal,
  query: { vector: readonly number[]; k: number; scope?: SearchScope },
): Promise<PassageHit[]> {
  const { dim } = await vectorColumn(db)
  if (dim === null) return []
  return withTenant(db, principal, async (tx) => {
    const found = await vectorCandidates(
      tx,
      principal,
      query.scope ?? {},
      embedderId,
      query.vector,
      query.k,
    )
    return hydrate(
      tx,
      found.map((f) => ({ id: f.id, score: Number(f.similarity) })),
    )
  })
}
