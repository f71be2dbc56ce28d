/**
 * Indexing-load benchmark (issue 26, decision 0057): one server process on a fresh data dir. Two
 * organisations each hold DOCUMENTS small documents; each organisation's document list is asked
 * for every LIST_EVERY_MS (as a member browsing the library would) for IDLE_MS while nothing runs,
 * then from the upload of a 3-million-character text file by the first organisation until its
 * chunking job (chunk, embed, save passages) has ended. Reports the p95 of both lists together
 * idle and while indexing, each organisation's p95 while indexing, the indexing time and the load
 * average (the machine is shared). Target on this machine: while indexing ≤ 2 × idle and ≤ 300 ms.
 */
import os from 'node:os'
import { setTimeout as delay } from 'node:timers/promises'
import { startBenchServer } from './start-bench-server'
import { signedInHttpMember, type HttpMember } from '../server/test/http-member'
import { uploadForm } from '../server/test/sample-files'
import { quantile } from './noisy-neighbour'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** The issue's document: 3 million characters. */
const DOCUMENT_CHARACTERS = 3_000_000
/** Documents each organisation holds before the measurement, so a list has rows to read. */
const DOCUMENTS = 20
const LIST_EVERY_MS = 50
const IDLE_MS = 10_000

/** About `characters` characters of distinct contract clauses, in paragraphs. */
function longContract(characters: number): string {
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < characters; i += 1) {
    const clause = `${i}. The Supplier shall deliver the goods of order ${i} to the Buyer's warehouse within ${(i % 28) + 2} days; any delay beyond that entitles the Buyer to liquidated damages of ${(i % 9) + 1} per cent of the price of order ${i}.${i % 4 === 3 ? '\n\n' : ' '}`
    parts.push(clause)
    size += clause.length
  }
  return parts.join('').slice(0, characters)
}

/**
 * Asks for `member`'s document list every LIST_EVERY_MS until `done()`; returns the latencies in
 * ms, sorted. A failed answer throws: a list that fails is no latency.
 */
async function pollList(origin: string, member: HttpMember, done: () => boolean) {
  const latencies: number[] = []
  while (!done()) {
    const t0 = performance.now()
    const res = await fetch(`${origin}/api/v1/orgs/${member.orgId}/documents?limit=50`, {
      headers: member.headers,
    })
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`the document list answered ${res.status}`)
    const latency = performance.now() - t0
    latencies.push(latency)
    await delay(Math.max(0, LIST_EVERY_MS - latency))
  }
  return latencies.sort((a, b) => a - b)
}

/** Both organisations' lists polled until `done()`: each one's latencies, and all of them. */
async function pollBoth(origin: string, members: HttpMember[], done: () => boolean) {
  const each = await Promise.all(members.map((m) => pollList(origin, m, done)))
  return { each, all: each.flat().sort((a, b) => a - b) }
}

type Job = { id: string; status: string; message: string | null; error: string | null }

/** The latest 'document-passages' job of `documentId`, or null before it is queued. */
async function chunkJob(origin: string, member: HttpMember, documentId: string) {
  const res = await fetch(
    `${origin}/api/v1/orgs/${member.orgId}/jobs?subjectId=${documentId}&kind=document-passages`,
    { headers: member.headers },
  )
  if (!res.ok) throw new Error(`the jobs list answered ${res.status}`)
  return ((await res.json()) as { items: Job[] }).items[0] ?? null
}

/** Uploads `text` as a .txt file for `member`; returns the document's id. */
async function upload(origin: string, member: HttpMember, text: string, name: string) {
  const res = await fetch(`${origin}/api/v1/orgs/${member.orgId}/documents`, {
    method: 'POST',
    headers: member.headers,
    body: uploadForm(new TextEncoder().encode(text), name),
  })
  if (res.status !== 201) throw new Error(`uploading ${name} answered ${res.status}`)
  return ((await res.json()) as { id: string }).id
}

/** Waits until `documentId`'s chunking job has ended; returns it. */
async function indexed(origin: string, member: HttpMember, documentId: string, log = false) {
  let shown = performance.now()
  for (;;) {
    const job = await chunkJob(origin, member, documentId)
    if (job && !['queued', 'running'].includes(job.status)) return job
    if (log && performance.now() - shown > 5_000) {
      shown = performance.now()
      process.stderr.write(`indexing-load: ${job?.status ?? 'not queued'} ${job?.message ?? ''}\n`)
    }
    await delay(250)
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** Runs the benchmark and reports its figures. */
export async function indexingLoadBench(report: Report): Promise<void> {
  const server = await startBenchServer('indexing')
  try {
    const indexer = await signedInHttpMember(server, 'Indexing Firm')
    const neighbour = await signedInHttpMember(server, 'Neighbour Firm')
    const members = [indexer, neighbour]
    for (const member of members) {
      const ids: string[] = []
      for (let i = 0; i < DOCUMENTS; i += 1)
        ids.push(await upload(server.origin, member, longContract(2_000 + i), `small-${i}.txt`))
      for (const id of ids) await indexed(server.origin, member, id)
    }

    const loadIdle = loadAverage()
    const idleEnd = performance.now() + IDLE_MS
    const idle = await pollBoth(server.origin, members, () => performance.now() > idleEnd)

    let ended = false
    const during = pollBoth(server.origin, members, () => ended)
    const t0 = performance.now()
    const text = longContract(DOCUMENT_CHARACTERS)
    const documentId = await upload(server.origin, indexer, text, 'long-contract.txt')
    const job = await indexed(server.origin, indexer, documentId, true)
    const indexMs = performance.now() - t0
    ended = true
    const busy = await during
    const loadBusy = loadAverage()

    const p95 = (sorted: number[]) => quantile(sorted, 0.95)
    const note = (sorted: number[]) =>
      `p50 ${quantile(sorted, 0.5).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms, ${sorted.length} lists`
    report('list_p95_ms_idle', p95(idle.all), 'ms', `${note(idle.all)}; load ${loadIdle}`)
    const target = Math.min(300, 2 * p95(idle.all))
    report(
      'list_p95_ms_while_indexing',
      p95(busy.all),
      'ms',
      `${note(busy.all)}; target ≤ ${target.toFixed(0)} ms (2 × idle, ≤ 300); load ${loadBusy}`,
    )
    report(
      'list_p95_ms_while_indexing_same_org',
      p95(busy.each[0] ?? []),
      'ms',
      note(busy.each[0] ?? []),
    )
    report(
      'list_p95_ms_while_indexing_other_org',
      p95(busy.each[1] ?? []),
      'ms',
      note(busy.each[1] ?? []),
    )
    report(
      'indexing_3m_chars_s',
      indexMs / 1000,
      's',
      `upload to job end; job ${job.status}: ${job.message ?? ''}${job.error ? `, ${job.error}` : ''}`,
    )
  } finally {
    await server.close()
  }
}
