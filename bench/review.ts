/**
 * Review-grid benchmark (issue 44, decision 0137): one server process on a fresh data dir, offline
 * (the local analyzer). The reviewing organisation holds REVIEW_DOCUMENTS contract texts (the CUAD
 * texts of LEXDESK_FIXTURES/contracts/cuad-txt, cycled, when that folder exists; else the three
 * test contracts with their names, dates and amounts varied per copy) and a neighbour organisation
 * NEIGHBOUR_DOCUMENTS. Once every document is indexed, it creates a review of all of them with the
 * first REVIEW_COLUMNS presets and, until the fill job ends, reads the review every POLL_MS (first
 * cell: the first reading with an answered, not-found, failed or unverified cell, so within
 * POLL_MS) while the neighbour's document list is asked for every LIST_EVERY_MS. Then it times the
 * XLSX export of the whole grid, read to its last byte. RSS: the server's highest VmRSS
 * (/proc/<pid>/status, read every RSS_EVERY_MS from the review's creation to the export's end)
 * less its VmRSS just before.
 * Targets on 2 cores (the issue): fill ≤ 60 s, first cell ≤ 2,000 ms, export ≤ 10 s, RSS growth
 * ≤ 500 MB, neighbour list p99 ≤ 500 ms.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { startBenchServer } from './start-bench-server'
import { quantile } from './noisy-neighbour'
import { signedInHttpMember, type HttpMember } from '../server/test/http-member'
import { SAMPLE_CONTRACT } from '../server/test/sample-files'
import { BALANCED_SUPPLY_AGREEMENT, RISKY_SERVICES_AGREEMENT } from '../server/test/test-contracts'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/**
 * The grid: 1,000 documents × 20 preset columns; `BENCH_REVIEW_DOCUMENTS=10000` runs the
 * issue's largest review ("a review of 10,000 documents works") with the same columns.
 */
const REVIEW_DOCUMENTS = Number(process.env.BENCH_REVIEW_DOCUMENTS ?? 1_000)
const REVIEW_COLUMNS = 20
const NEIGHBOUR_DOCUMENTS = 20
/** How often the review is read during the fill (the first cell's resolution). */
const POLL_MS = 100
/** How often the neighbour's list is asked for, as a member browsing the library would. */
const LIST_EVERY_MS = 50
/** How often the server's resident memory is read. */
const RSS_EVERY_MS = 100
/** Documents created at once. */
const UPLOAD_CONCURRENCY = 4

/** `count` contract texts: the fixtures' CUAD texts, cycled, else varied test contracts. */
async function contractTexts(count: number): Promise<{ texts: string[]; source: string }> {
  const fixtures = process.env.LEXDESK_FIXTURES
  const dir = fixtures ? path.resolve(fixtures, 'contracts/cuad-txt') : ''
  if (dir && existsSync(dir)) {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()
    const pool = await Promise.all(
      files.map(async (f) => (await readFile(path.join(dir, f), 'utf8')).replace(/\r\n?/g, '\n')),
    )
    return {
      texts: Array.from({ length: count }, (_, i) => pool[i % pool.length]!),
      source: `${pool.length} CUAD texts of ${dir}, cycled`,
    }
  }
  const bases = [SAMPLE_CONTRACT, RISKY_SERVICES_AGREEMENT, BALANCED_SUPPLY_AGREEMENT]
  const texts = Array.from({ length: count }, (_, i) =>
    bases[i % bases.length]!.replace(/\b(19|20)\d\d\b/g, String(2000 + (i % 25)))
      .replace(/\b\d{1,3}(,\d{3})+\b/g, (m) => `${Number(m.replace(/,/g, '')) + i}`)
      .replace(/\bAcme\b|\bNorthwind\b/g, `Party ${i}`),
  )
  return { texts, source: 'the three test contracts, varied (no LEXDESK_FIXTURES)' }
}

/** Resident memory of process `pid` in MB (MiB, as the kernel counts kB). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024
}

/** The highest rssMb(pid), read every RSS_EVERY_MS until `done()`. */
async function peakRss(pid: number, done: () => boolean): Promise<number> {
  let peak = 0
  while (!done()) {
    peak = Math.max(peak, await rssMb(pid))
    await delay(RSS_EVERY_MS)
  }
  return Math.max(peak, await rssMb(pid))
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as T
}

/** Creates the text documents `texts` for `member`, UPLOAD_CONCURRENCY at a time; their ids. */
async function createDocuments(origin: string, member: HttpMember, texts: string[]) {
  const ids: string[] = new Array(texts.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < texts.length; i = next++) {
      const res = await fetch(`${origin}/api/v1/orgs/${member.orgId}/documents/text`, {
        method: 'POST',
        headers: { ...member.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Contract ${i + 1}`, content: texts[i] }),
      })
      ids[i] = (await json<{ id: string }>(res, 'creating a document')).id
    }
  }
  await Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, worker))
  return ids
}

/** Waits until `member`'s organisation has no queued or running job (its indexing is done). */
async function jobsSettled(origin: string, member: HttpMember, label: string) {
  let shown = performance.now()
  for (;;) {
    const res = await fetch(
      `${origin}/api/v1/orgs/${member.orgId}/jobs?status=queued,running&limit=1`,
      { headers: member.headers },
    )
    const { total } = await json<{ total: number }>(res, 'the jobs list')
    if (total === 0) return
    if (performance.now() - shown > 10_000) {
      shown = performance.now()
      process.stderr.write(`review: ${label}: ${total} jobs left\n`)
    }
    await delay(500)
  }
}

/** Asks for `member`'s document list every LIST_EVERY_MS until `done()`; sorted latencies. */
async function pollList(origin: string, member: HttpMember, done: () => boolean) {
  const latencies: number[] = []
  while (!done()) {
    const t0 = performance.now()
    const res = await fetch(`${origin}/api/v1/orgs/${member.orgId}/documents?limit=50`, {
      headers: member.headers,
    })
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`the neighbour's list answered ${res.status}`)
    const latency = performance.now() - t0
    latencies.push(latency)
    await delay(Math.max(0, LIST_EVERY_MS - latency))
  }
  return latencies.sort((a, b) => a - b)
}

type ReviewRead = {
  cells: Record<'total' | 'pending' | 'running', number>
  fill: { status: string; progress: number } | null
}

/** Runs the benchmark and reports its figures. */
export async function reviewBench(report: Report): Promise<void> {
  const server = await startBenchServer('review')
  try {
    const reviewer = await signedInHttpMember(server, 'Review Firm')
    const neighbour = await signedInHttpMember(server, 'Neighbour Firm')
    const { texts, source } = await contractTexts(REVIEW_DOCUMENTS)
    const t0 = performance.now()
    const documentIds = await createDocuments(server.origin, reviewer, texts)
    await createDocuments(server.origin, neighbour, texts.slice(0, NEIGHBOUR_DOCUMENTS))
    await jobsSettled(server.origin, reviewer, 'indexing')
    await jobsSettled(server.origin, neighbour, 'indexing')
    process.stderr.write(
      `review: ${documentIds.length} documents made and indexed in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
    )

    const api = `${server.origin}/api/v1/orgs/${reviewer.orgId}/reviews`
    const presets = await json<{ items: { key: string }[] }>(
      await fetch(`${api}/presets`, { headers: reviewer.headers }),
      'the presets',
    )
    const columns = presets.items.slice(0, REVIEW_COLUMNS).map((p) => ({ preset: p.key }))
    const before = await rssMb(server.pid)
    const loadBefore = os.loadavg()[0]!.toFixed(2)

    let ended = false
    let exportedAll = false
    const peak = peakRss(server.pid, () => exportedAll)
    const neighbourList = pollList(server.origin, neighbour, () => ended)
    const created = performance.now()
    const createdAt = Date.now()
    const review = await json<{
      id: string
      cells: { total: number }
      fillJob: { id: string } | null
    }>(
      await fetch(api, {
        method: 'POST',
        headers: { ...reviewer.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Bench review',
          rows: { source: 'selection', documentIds },
          columns,
        }),
      }),
      'creating the review',
    )
    const createMs = performance.now() - created
    let firstCellMs: number | null = null
    let read: ReviewRead
    for (;;) {
      read = await json<ReviewRead>(
        await fetch(`${api}/${review.id}`, { headers: reviewer.headers }),
        'reading the review',
      )
      const open = read.cells.pending + read.cells.running
      if (firstCellMs === null && open < read.cells.total) firstCellMs = performance.now() - created
      if (open === 0 || (read.fill && !['queued', 'running'].includes(read.fill.status))) break
      await delay(POLL_MS)
    }
    const fillS = (performance.now() - created) / 1000
    ended = true
    // When the runner started the fill (server clock, the same machine's): splits the first cell
    // into the create request, the wait for the runner, and the first document's answers.
    const fillJob = review.fillJob
      ? await json<{ startedAt: string | null }>(
          await fetch(`${server.origin}/api/v1/orgs/${reviewer.orgId}/jobs/${review.fillJob.id}`, {
            headers: reviewer.headers,
          }),
          'the fill job',
        )
      : null
    const startMs = fillJob?.startedAt ? Date.parse(fillJob.startedAt) - createdAt : null
    const listed = await neighbourList
    const loadDuring = os.loadavg()[0]!.toFixed(2)

    const exportStart = performance.now()
    const exported = await fetch(`${api}/${review.id}/export?format=xlsx`, {
      headers: reviewer.headers,
    })
    if (!exported.ok) throw new Error(`the export answered ${exported.status}`)
    const bytes = (await exported.arrayBuffer()).byteLength
    const exportS = (performance.now() - exportStart) / 1000
    exportedAll = true
    const highest = await peak

    report('review_documents', documentIds.length, '', source)
    report('review_columns', columns.length, '', `${review.cells.total} cells`)
    report(
      'review_fill_s',
      fillS,
      's',
      `create → no cell pending, ${(REVIEW_DOCUMENTS / (fillS - (firstCellMs ?? 0) / 1000)).toFixed(1)} documents/s after the first; fill ${read.fill?.status ?? 'none'}; load ${loadBefore} → ${loadDuring}; target ≤ 60 s`,
    )
    report(
      'review_first_cell_ms',
      firstCellMs,
      'ms',
      `read every ${POLL_MS} ms; the create request took ${createMs.toFixed(0)} ms, the fill started at ${startMs ?? '?'} ms; target ≤ 2,000 ms`,
    )
    report(
      'review_export_s',
      exportS,
      's',
      `XLSX, ${(bytes / 1024 / 1024).toFixed(1)} MiB; target ≤ 10 s`,
    )
    report(
      'review_rss_mb',
      highest - before,
      'MB',
      `highest ${highest.toFixed(0)} MB − ${before.toFixed(0)} MB before the review, through fill and export; target ≤ 500 MB`,
    )
    report(
      'review_neighbour_list_p99_ms',
      quantile(listed, 0.99),
      'ms',
      `p50 ${quantile(listed, 0.5).toFixed(1)} ms, ${listed.length} lists during the fill; target ≤ 500 ms`,
    )
  } finally {
    await server.close()
  }
}
