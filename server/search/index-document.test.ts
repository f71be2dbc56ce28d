/**
 * The 'document-passages' job's save phase (decision 0031): passages go in short transactions, a
 * newer job for the same document stops an older one, and a cancel leaves no partial set.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../db/client'
import type { PgliteThread } from '../db/pglite-thread'
import { documents, jobs } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { insertOrganisations, openTestDatabase } from '../test/test-database'
import type { JobContext, TypedJob } from '../jobs/define-job-contract'
import type { Embedder } from '../ai/embedder/types'
import { insertJob } from '../jobs/job-service'
import { insertDocument } from '../documents/document-writes'
import { PASSAGE_JOB_KIND, passageJobHandler } from './index-document'
import { queueOnlyJobRunner } from '../test/queue-only-job-runner'
import { chunkText } from './chunk-text'

let database: Database
const principal: Principal = { orgId: 'org-a', userId: null, role: 'member', actorType: 'system' }

/** A stand-in embedder: these tests are about storing passages, not about their vectors. */
const embedder: Embedder = {
  id: 'test:constant:384',
  dim: 384,
  embed: async (texts) => texts.map((_, i) => Array.from({ length: 384 }, (_, j) => (i + j) % 7)),
}

beforeAll(async () => {
  database = await openTestDatabase()
  await insertOrganisations(database, 'org-a')
})
afterAll(() => database.close())

/** A text of about `sentences` passages' worth of distinct sentences. */
const longText = (sentences: number, word: string) =>
  Array.from(
    { length: sentences },
    (_, i) =>
      `Clause ${i} of the ${word} agreement obliges the supplier to deliver goods number ${i} on time and in good order.`,
  ).join(' ')

/** Adds a document as every feature does; that queues its chunking job (claimed by latestJob). */
async function addDocument(content: string) {
  return withTenant(database.db, principal, async (tx) => {
    const doc = await insertDocument(queueOnlyJobRunner(database.db), tx, principal, {
      title: 'Supply agreement',
      content,
      documentType: 'contract',
      event: null,
    })
    return doc.id
  })
}

async function latestJob(documentId: string): Promise<TypedJob<{ documentId: string }>> {
  const [row] = await withTenant(database.db, principal, (tx) =>
    tx
      .select()
      .from(jobs)
      .where(eq(jobs.subjectId, documentId))
      .orderBy(sql`created_at desc, id desc`)
      .limit(1),
  )
  return {
    id: row!.id,
    orgId: row!.orgId,
    kind: row!.kind,
    input: row!.input as { documentId: string },
    attempts: 1,
    maxAttempts: 3,
    createdBy: null,
  }
}

const passagesOf = (documentId: string) =>
  withTenant(database.db, principal, async (tx) => {
    const result = await tx.execute(
      sql`select ordinal, content from doc_chunks where document_id = ${documentId} order by ordinal`,
    )
    return (result as unknown as { rows: { ordinal: number; content: string }[] }).rows
  })

function context(overrides: Partial<JobContext> = {}): JobContext {
  return { signal: new AbortController().signal, progress: () => {}, ...overrides }
}

describe('document-passages job', () => {
  it('stores every passage of a long document, in order, over several transactions', async () => {
    const content = longText(400, 'supply')
    const expected = chunkText(content)
    expect(expected.length).toBeGreaterThan(100)
    const id = await addDocument(content)
    const messages: string[] = []
    const handler = passageJobHandler({ db: database.db, embedder })
    const result = await handler.run(
      await latestJob(id),
      context({ progress: (_, message) => void messages.push(message) }),
    )
    expect(result).toEqual({ chunks: expected.length, embedder: embedder.id })
    const stored = await passagesOf(id)
    expect(stored.map((p) => p.ordinal)).toEqual(expected.map((_, i) => i))
    expect(stored.map((p) => p.content)).toEqual(expected.map((c) => c.text))
    expect(messages).toContain(`${expected.length} of ${expected.length} passages saved`)
  })

  it('reports progress as passages saved / total, rising to 1 with every passage stored', async () => {
    const content = longText(400, 'progress')
    const total = chunkText(content).length
    const id = await addDocument(content)
    const seen: { fraction: number; stored: number; message: string }[] = []
    const pending: Promise<void>[] = []
    await passageJobHandler({ db: database.db, embedder }).run(
      await latestJob(id),
      context({
        progress: (fraction, message) =>
          void pending.push(
            passagesOf(id).then((rows) => {
              seen.push({ fraction, stored: rows.length, message })
            }),
          ),
      }),
    )
    await Promise.all(pending)
    const fractions = seen.map((s) => s.fraction)
    expect(fractions.length).toBeGreaterThan(2)
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    expect(fractions.at(-1)).toBe(1)
    for (const { fraction, message } of seen) {
      const done = Math.round(fraction * total)
      expect(message).toBe(`${done} of ${total} passages saved`)
    }
    // Once reported, that many passages are in the database (a later batch may have landed too).
    for (const { fraction, stored } of seen)
      expect(stored).toBeGreaterThanOrEqual(Math.round(fraction * total))
  })

  it('saves several passages per transaction, never more than 4', async () => {
    // Records the passages each transaction inserts (PGlite runs one transaction at a time; a
    // request arriving during one waits for the passage being inserted, see the test below).
    await database.db.execute(sql`create table chunk_tx_log (tx bigint, n int)`)
    // Security definer: the job writes as the tenant role, which may not touch this table.
    await database.db.execute(sql`
      create function log_chunk_tx() returns trigger language plpgsql security definer as $$
        begin
          insert into chunk_tx_log select txid_current(), count(*) from inserted;
          return null;
        end $$`)
    await database.db.execute(sql`
      create trigger chunk_tx_log after insert on doc_chunks
        referencing new table as inserted for each statement execute function log_chunk_tx()`)
    try {
      const content = longText(400, 'batched')
      const id = await addDocument(content)
      await passageJobHandler({ db: database.db, embedder }).run(await latestJob(id), context())
      const result = await database.db.execute(
        sql`select tx, sum(n)::int as n from chunk_tx_log group by tx`,
      )
      const perTransaction = (result as unknown as { rows: { n: number }[] }).rows.map((r) => r.n)
      expect(perTransaction.reduce((a, b) => a + b, 0)).toBe(chunkText(content).length)
      expect(Math.max(...perTransaction)).toBe(4)
    } finally {
      await database.db.execute(sql`drop trigger chunk_tx_log on doc_chunks`)
      await database.db.execute(sql`drop function log_chunk_tx()`)
      await database.db.execute(sql`drop table chunk_tx_log`)
    }
  })

  it('sends each batch to the database thread as one message in its background lane, never an interactive transaction', async () => {
    // An interactive transaction holds the database while this thread, busy with requests,
    // gets round to sending its next statement; a batch holds it for its own work only.
    const client = (database.db as unknown as { $client: PgliteThread }).$client
    const content = longText(400, 'messages')
    const id = await addDocument(content)
    const job = await latestJob(id)
    const transaction = vi.spyOn(client, 'transaction')
    const send = client.background.bind(client)
    // The passages each batch saved: a batch the thread stopped for a request (contended, under
    // load) ran only its first statements, and the job sends the rest again in a later one.
    const saved: number[] = []
    const background = vi
      .spyOn(client, 'background')
      .mockImplementation(async (statements, options) => {
        const result = await send(statements, options)
        const ran = statements.slice(0, result.results.length)
        saved.push(ran.filter((s) => s.sql.includes('INSERT INTO doc_chunks')).length)
        return result
      })
    try {
      await passageJobHandler({ db: database.db, embedder }).run(job, context())
      expect(transaction).not.toHaveBeenCalled()
      expect(background).toHaveBeenCalled()
      expect(saved.reduce((a, b) => a + b, 0)).toBe(chunkText(content).length)
    } finally {
      transaction.mockRestore()
      background.mockRestore()
    }
    expect((await passagesOf(id)).length).toBe(chunkText(content).length)
  })

  it('goes on from the passage where a request stopped its transaction, saving each passage once', async () => {
    // A request's query sent right behind every save: the database thread stops each save after
    // its first passage (PgliteThread.background), and the job saves the rest in later ones.
    const client = (database.db as unknown as { $client: PgliteThread }).$client
    const content = longText(100, 'interrupted')
    const expected = chunkText(content)
    const id = await addDocument(content)
    const job = await latestJob(id)
    const background = client.background.bind(client)
    const stopped: number[] = []
    const spy = vi.spyOn(client, 'background').mockImplementation((statements, options) => {
      const run = background(statements, options)
      void client.query('select 1')
      return run.then((result) => {
        if (result.contended) stopped.push(statements.length - result.results.length)
        return result
      })
    })
    const messages: string[] = []
    try {
      await passageJobHandler({ db: database.db, embedder }).run(
        job,
        context({ progress: (_, message) => void messages.push(message) }),
      )
    } finally {
      spy.mockRestore()
    }
    // Every save of more than one passage was cut short, and every passage is stored once.
    expect(stopped.filter((skipped) => skipped > 0).length).toBeGreaterThan(expected.length / 8)
    const stored = await passagesOf(id)
    expect(stored.map((p) => p.ordinal)).toEqual(expected.map((_, i) => i))
    expect(stored.map((p) => p.content)).toEqual(expected.map((c) => c.text))
    const done = messages.map((m) => Number(m.split(' ')[0]))
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(messages.at(-1)).toBe(`${expected.length} of ${expected.length} passages saved`)
  })

  it('stops when the text changes meanwhile, and the newer job writes only the new passages', async () => {
    const id = await addDocument(longText(200, 'original'))
    const older = await latestJob(id)
    const handler = passageJobHandler({ db: database.db, embedder })
    // The text changes while the older job embeds, and whoever changes it queues a newer job.
    const racing: Embedder = {
      ...embedder,
      embed: async (texts) => {
        await withTenant(database.db, principal, async (tx) => {
          await tx
            .update(documents)
            .set({ content: longText(150, 'amended') })
            .where(eq(documents.id, id))
          await insertJob(tx, principal, {
            kind: PASSAGE_JOB_KIND,
            subjectId: id,
            input: { documentId: id },
            background: true,
          })
        })
        return embedder.embed(texts)
      },
    }
    const stale = await passageJobHandler({ db: database.db, embedder: racing }).run(
      older,
      context(),
    )
    expect(stale).toMatchObject({ chunks: 0, superseded: true })
    const newer = await latestJob(id)
    expect(newer.id).not.toBe(older.id)
    await handler.run(newer, context())
    const stored = await passagesOf(id)
    expect(stored.length).toBe(chunkText(longText(150, 'amended')).length)
    expect(stored.every((p) => !p.content.includes('original'))).toBe(true)
  })

  it('removes the passages it wrote when cancelled while saving', async () => {
    const id = await addDocument(longText(400, 'cancelled'))
    const controller = new AbortController()
    const handler = passageJobHandler({ db: database.db, embedder })
    const run = handler.run(
      await latestJob(id),
      context({
        signal: controller.signal,
        progress: (_, message) => {
          if (message.startsWith('100 of')) controller.abort(new Error('cancelled'))
        },
      }),
    )
    await expect(run).rejects.toThrow('cancelled')
    expect(await passagesOf(id)).toEqual([])
  })

  it('indexes nothing for a document deleted before its job ran', async () => {
    const id = await addDocument(longText(10, 'deleted'))
    const job = await latestJob(id)
    await withTenant(database.db, principal, (tx) =>
      tx.delete(documents).where(eq(documents.id, id)),
    )
    const result = await passageJobHandler({ db: database.db, embedder }).run(job, context())
    expect(result).toEqual({ chunks: 0, embedder: null })
  })
})
