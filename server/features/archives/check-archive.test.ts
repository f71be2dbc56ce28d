/**
 * Hostile organisation archives are refused before anything of them is read into the database
 * (issue 27): each case of the issue is built with fflate (archiver cleans names itself, so it
 * cannot make them) and must fail checkArchive with its problem, while a well-formed archive
 * passes with its manifest.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Zip, ZipPassThrough, zipSync, type Zippable } from 'fflate'
import yauzl from 'yauzl'
import { AppError } from '../../errors/app-error'
import { ARCHIVE_OPEN_OPTIONS, checkArchive } from './check-archive'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION } from './archive-format'

const text = (s: string) => new TextEncoder().encode(s)
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** A manifest listing `files` with their true checksums, changed by `patch`. */
function manifestOf(files: Record<string, Uint8Array>, patch: Record<string, unknown> = {}) {
  return text(
    JSON.stringify({
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      lexdeskVersion: '0.1.0',
      exportedAt: new Date().toISOString(),
      source: { orgId: 'org-1', name: 'Acme', slug: 'acme' },
      embeddings: { included: false, embedder: null },
      counts: { documents: 1 },
      entries: Object.fromEntries(Object.entries(files).map(([name, b]) => [name, sha(b)])),
      ...patch,
    }),
  )
}

/** A ZIP of `files` plus their manifest (changed by `patch`), as fflate writes it. */
function archive(
  files: Record<string, Uint8Array>,
  patch: Record<string, unknown> = {},
  extra: Zippable = {},
): Buffer {
  return Buffer.from(zipSync({ ...files, 'manifest.json': manifestOf(files, patch), ...extra }))
}

const GOOD = { 'tables/documents.ndjson': text('{"id":"d1","title":"NDA"}\n') }

async function check(zip: Buffer, limits: { maxBytes?: number; maxEntries?: number } = {}) {
  const file = await yauzl.fromBufferPromise(zip, ARCHIVE_OPEN_OPTIONS)
  try {
    return await checkArchive(file, { maxBytes: limits.maxBytes ?? 1e9, ...limits })
  } finally {
    file.close()
  }
}

/** The AppError checkArchive throws for `zip`. */
async function refusal(zip: Buffer, limits?: { maxBytes?: number; maxEntries?: number }) {
  const error = await check(zip, limits).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('checkArchive', () => {
  it('passes a well-formed archive and answers its manifest and entries', async () => {
    const checked = await check(archive(GOOD))
    expect(checked.manifest.source.slug).toBe('acme')
    expect([...checked.entries.keys()].sort()).toEqual(['manifest.json', 'tables/documents.ndjson'])
  })

  it.each([
    ['a parent-folder step', 'files/../../etc/passwd', /leaves its folder/],
    ['an absolute path', '/etc/passwd', /absolute path/],
    ['a drive letter', 'C:/Windows/evil.dll', /names a drive/],
    ['a backslash', 'files\\documents\\x', /backslash/],
    ['a control character', 'files/a\u0001b', /control character/],
  ])('refuses an entry with %s', async (_case, name, detail) => {
    const files = { ...GOOD, [name]: text('x') }
    const error = await refusal(archive(files))
    expect(error.code).toBe('archive_invalid')
    expect(error.message).toMatch(detail)
  })

  it('refuses a symbolic link', async () => {
    const link: Zippable = {
      'files/documents/link': [text('/etc/passwd'), { attrs: (0o120777 << 16) >>> 0, os: 3 }],
    }
    const error = await refusal(archive(GOOD, {}, link))
    expect(error.message).toMatch(/symbolic link/)
  })

  it('refuses a name that appears twice', async () => {
    const chunks: Uint8Array[] = []
    const zip = new Zip((err, data) => {
      if (err) throw err
      chunks.push(data)
    })
    for (const name of ['tables/documents.ndjson', 'tables/documents.ndjson', 'manifest.json']) {
      const entry = new ZipPassThrough(name)
      zip.add(entry)
      entry.push(
        name === 'manifest.json' ? manifestOf(GOOD) : GOOD['tables/documents.ndjson'],
        true,
      )
    }
    zip.end()
    const error = await refusal(Buffer.concat(chunks))
    expect(error.message).toMatch(/appears twice/)
  })

  it('refuses more entries than the cap before reading any', async () => {
    const error = await refusal(archive(GOOD), { maxEntries: 1 })
    expect(error.code).toBe('archive_too_large')
    expect(error.status).toBe(413)
  })

  it('refuses an archive that declares more inflated bytes than IMPORT_MAX_BYTES', async () => {
    const error = await refusal(archive({ ...GOOD, 'files/objects/a': new Uint8Array(4096) }), {
      maxBytes: 4000,
    })
    expect(error.code).toBe('archive_too_large')
    expect(error.message).toMatch(/IMPORT_MAX_BYTES/)
  })

  it('refuses an entry that inflates past the ratio cap (a bomb)', async () => {
    const bomb = { ...GOOD, 'files/objects/zeros': new Uint8Array(8 * 1024 * 1024) }
    const error = await refusal(archive(bomb))
    expect(error.code).toBe('archive_too_large')
    expect(error.message).toMatch(/1000 to 1/)
  })

  it('refuses an unknown format version and a foreign format', async () => {
    expect((await refusal(archive(GOOD, { version: 2 }))).message).toMatch(/format version 2/)
    expect((await refusal(archive(GOOD, { format: 'other' }))).message).toMatch(/not a Lexdesk/)
  })

  it('refuses an entry whose bytes do not match the manifest checksum', async () => {
    const tampered = archive(GOOD, {
      entries: { 'tables/documents.ndjson': sha(text('something else')) },
    })
    const error = await refusal(tampered)
    expect(error.message).toMatch(/tables\/documents\.ndjson.*checksum/)
  })

  it('refuses entries missing from the manifest or from the archive', async () => {
    expect((await refusal(archive(GOOD, { entries: {} }))).message).toMatch(/not in the manifest/)
    const missing = archive(GOOD, {
      entries: {
        'tables/documents.ndjson': sha(GOOD['tables/documents.ndjson']),
        'files/x': sha(text('x')),
      },
    })
    expect((await refusal(missing)).message).toMatch(/files\/x.*missing/)
  })

  it('refuses an archive without a manifest', async () => {
    const error = await refusal(Buffer.from(zipSync(GOOD)))
    expect(error.message).toMatch(/no manifest\.json/)
  })
})
