/**
 * The issue 27 archive comparison shared by the round-trip and clone tests: an organisation's
 * export read whole through the API, and the check that two exports hold the same entries
 * except ids, times and the organisation's name: every table's rows as multisets (ids,
 * references, times and file entry names left out) and every stored file's bytes.
 */
import { expect } from 'vitest'
import type { TestApp, TestMember } from './test-app'
import { finishedJob } from './finished-job'
import { ndjson, readZip } from './read-zip'

/** An export's bytes and its entries, name → bytes. */
export interface ExportedOrg {
  bytes: Buffer
  entries: Map<string, Buffer>
}

/** Exports organisation `orgId` (of which `m` is an owner) with embeddings, to the end. */
export async function exportOf(t: TestApp, m: TestMember, orgId: string): Promise<ExportedOrg> {
  const url = `/api/v1/orgs/${orgId}`
  const started = await t.app.inject({
    method: 'POST',
    url: `${url}/export`,
    headers: m.headers,
    payload: { includeEmbeddings: true },
  })
  expect(started.statusCode, started.body).toBe(202)
  const job = await finishedJob(t, { ...m, orgId }, started.json().id)
  expect(job.status, job.error ?? '').toBe('succeeded')
  const file = await t.app.inject({
    url: `${url}/exports/${started.json().id}/file`,
    headers: m.headers,
  })
  return { bytes: file.rawPayload, entries: await readZip(file.rawPayload) }
}

/**
 * A row without what an import may change: ids, references, times and the file's entry name,
 * and the ids inside its JSON values (an import remaps them to the new rows, decision 0071). With
 * `people` 'imported' (an uploaded archive, decision 0103), also who made or did it: an import
 * points no row at this server's users and names audit actors as imported.
 */
function comparable(row: Record<string, unknown>, people: People): string {
  const imported = people === 'imported'
  const kept = Object.entries(row)
    .filter(
      ([k]) =>
        k !== 'id' &&
        k !== 'file' &&
        !k.endsWith('_id') &&
        !k.endsWith('_at') &&
        !(imported && (k.endsWith('_by') || k === 'actor_type')),
    )
    .map(([k, v]): [string, unknown] => {
      if (!imported || k !== 'meta' || typeof v !== 'object' || v === null) return [k, v]
      const { importedActor: _actor, ...meta } = v as Record<string, unknown>
      return [k, meta]
    })
  return JSON.stringify(Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)))).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    '<id>',
  )
}

/** Whether a copy keeps its people (a clone) or names them as imported (an uploaded archive). */
export type People = 'kept' | 'imported'

/** `rows` without one occurrence of each of `minus`. */
function without(rows: string[], minus: string[]): string[] {
  const left = [...rows]
  for (const row of minus) {
    const at = left.indexOf(row)
    if (at >= 0) left.splice(at, 1)
  }
  return left
}

/** The stored files of an archive as `<folder>:<base64 bytes>`, sorted. */
export function filesOf(entries: Map<string, Buffer>): string[] {
  return [...entries.entries()]
    .filter(([n]) => n.startsWith('files/'))
    .map(([n, bytes]) => `${n.split('/')[1]}:${bytes.toString('base64')}`)
    .sort()
}

/** The manifest of an archive. */
export function manifestOf(entries: Map<string, Buffer>): {
  source: { name: string }
  counts: Record<string, number>
} {
  return JSON.parse(entries.get('manifest.json')!.toString())
}

/**
 * Expects `b` to hold every row and file of `a` and nothing more, but for rows `isTrace` allows
 * (what the copying itself added to b's logs, which a's export cannot hold) and, for `people`
 * 'imported', who made each row; the counts of the manifests equal except the audit and event
 * logs'.
 */
export function expectSameOrganisation(
  a: Map<string, Buffer>,
  b: Map<string, Buffer>,
  isTrace: (row: string) => boolean,
  people: People = 'kept',
): void {
  const names = (m: Map<string, Buffer>) => [...m.keys()].filter((n) => n.startsWith('tables/'))
  expect(names(b).sort()).toEqual(names(a).sort())
  for (const name of names(a)) {
    const rows = (m: Map<string, Buffer>) =>
      ndjson(m.get(name))
        .map((row) => comparable(row, people))
        .sort()
    expect(without(rows(a), rows(b)), name).toEqual([])
    expect(
      without(rows(b), rows(a)).filter((r) => !isTrace(r)),
      name,
    ).toEqual([])
  }
  expect(filesOf(b)).toEqual(filesOf(a))
  const counts = (m: Map<string, Buffer>) => {
    const { audit_logs: _a, events: _e, ...rest } = manifestOf(m).counts
    return rest
  }
  expect(counts(b)).toEqual(counts(a))
}
