/**
 * Acceptance of issue 5, hole 3: the real server, killed with SIGKILL during concurrent uploads
 * and restarted on the same data dir, keeps every acknowledged document byte for byte and leaves
 * no document file without a row.
 */
import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startChildServer, type ChildServer } from '../../test/child-server'
import { seededDataDir } from '../../test/seeded-data-dir'
import { freePort } from '../../test/free-port'
import { signedInHttpMember, type HttpMember } from '../../test/http-member'
import { uploadForm } from '../../test/sample-files'

const UPLOADS = 20
/** The server is killed as soon as this many uploads have been answered 201. */
const ACKNOWLEDGED_BEFORE_KILL = 3
const MIB = 1024 * 1024

let dataDir: string
let server: ChildServer | undefined
let port: number

beforeAll(async () => {
  dataDir = await seededDataDir('lexdesk-crash-')
})
afterAll(async () => {
  await server?.stop('SIGKILL')
  await rm(dataDir, { recursive: true, force: true })
})

/** Upload `n`: a distinct plain-text exhibit of 1–5 MiB (no two share a size or a line). */
function exhibit(n: number): Uint8Array {
  const size = (1 + (n % 5)) * MIB - n * 997
  const line = `Exhibit ${n}: the Supplier shall deliver the Goods listed in Schedule ${n} within thirty days.\n`
  return new TextEncoder().encode(line.repeat(Math.ceil(size / line.length)).slice(0, size))
}

type UploadOutcome =
  | { n: number; kind: 'acknowledged'; id: string }
  | { n: number; kind: 'refused'; status: number; body: string }
  | { n: number; kind: 'cut' }

/** Uploads exhibit `n`; a connection cut by the kill is an outcome, not an error. */
async function upload(member: HttpMember, n: number, bytes: Uint8Array): Promise<UploadOutcome> {
  try {
    const res = await fetch(`${member.headers.origin}/api/v1/orgs/${member.orgId}/documents`, {
      method: 'POST',
      headers: member.headers,
      body: uploadForm(bytes, `exhibit-${n}.txt`),
    })
    if (res.status !== 201)
      return { n, kind: 'refused', status: res.status, body: await res.text() }
    return { n, kind: 'acknowledged', id: ((await res.json()) as { id: string }).id }
  } catch {
    return { n, kind: 'cut' }
  }
}

/** Ids of the document folders on disk (any organisation) that hold at least one file. */
async function documentFoldersOnDisk(): Promise<string[]> {
  const root = path.join(dataDir, 'blobs', 'orgs')
  const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  const ids = new Set<string>()
  for (const entry of files) {
    if (!entry.isFile()) continue
    const [, kind, id] = path.relative(root, entry.parentPath).split(path.sep)
    if (kind === 'documents' && id) ids.add(id)
  }
  return [...ids].sort()
}

describe('a server killed during uploads', () => {
  it('keeps every acknowledged upload byte for byte and no file without a row after a restart', async () => {
    port = await freePort()
    server = await startChildServer({ dataDir, port })
    const member = await signedInHttpMember(server)
    const files = Array.from({ length: UPLOADS }, (_, n) => exhibit(n))

    let acknowledged = 0
    let killed: Promise<void> | undefined
    const running = server
    const outcomes = await Promise.all(
      files.map(async (bytes, n) => {
        const outcome = await upload(member, n, bytes)
        if (outcome.kind === 'acknowledged' && ++acknowledged === ACKNOWLEDGED_BEFORE_KILL)
          killed = running.stop('SIGKILL')
        return outcome
      }),
    )
    expect(killed, 'fewer uploads were acknowledged than needed to trigger the kill').toBeDefined()
    await killed
    expect(outcomes.filter((o) => o.kind === 'refused')).toEqual([])
    const acked = outcomes.flatMap((o) => (o.kind === 'acknowledged' ? [o] : []))
    expect(
      acked.length,
      'every upload finished before the kill, so no crash was exercised',
    ).toBeLessThan(UPLOADS)

    expect(
      (await documentFoldersOnDisk()).length,
      'the kill left no file of an unacknowledged upload, so reconciliation was not exercised',
    ).toBeGreaterThan(acked.length)
    server = await startChildServer({ dataDir, port })
    const base = `${server.origin}/api/v1/orgs/${member.orgId}/documents`
    const list = await fetch(`${base}?limit=200`, { headers: member.headers })
    expect(list.status).toBe(200)
    const listed = ((await list.json()) as { items: { id: string; title: string }[] }).items

    const listedIds = listed.map((d) => d.id).sort()
    expect(listedIds).toEqual(expect.arrayContaining(acked.map((a) => a.id)))
    // Every listed document, acknowledged or not, is one of the uploads and has all its bytes.
    for (const doc of listed) {
      const n = Number(/^exhibit-(\d+)$/.exec(doc.title)?.[1])
      const file = await fetch(`${base}/${doc.id}/file`, { headers: member.headers })
      expect(file.status, `file of ${doc.title}`).toBe(200)
      const bytes = new Uint8Array(await file.arrayBuffer())
      expect(Buffer.compare(bytes, files[n] ?? new Uint8Array()), `bytes of ${doc.title}`).toBe(0)
    }
    expect(await documentFoldersOnDisk()).toEqual(listedIds)
  }, 300_000)
})
