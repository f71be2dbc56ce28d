import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { compiledSerializer } from './compiled-serializer'
import { pageOf } from './paging'

/** A page of cards as the library's list answers them (features/documents/schemas.ts). */
const Card = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    title: z.string(),
    documentType: z.string(),
    preview: z.string(),
    createdAt: z.string(),
    textStatus: z.enum(['ok', 'empty', 'ocr']),
  })
  .meta({ id: 'TestCard' })
const DocumentPage = pageOf(Card).extend({ types: z.array(z.string()) })

const route = { method: 'GET', url: '/x', httpStatus: '200' }
const serialize = compiledSerializer({ ...route, schema: DocumentPage })

const item = {
  id: '0b6a3c52-4d0e-4f7a-9d56-2f3a4b5c6d7e',
  appId: null,
  title: 'Lease "A" \u2028 \\ ✓',
  documentType: 'contract',
  preview: 'The parties agree',
  createdAt: '2026-11-24T13:06:23.123Z',
  textStatus: 'ok' as const,
}

describe('compiledSerializer', () => {
  it('writes what the zod serializer writes for a valid answer', () => {
    const page = { items: [item, { ...item, appId: item.id }], total: 2, types: ['contract'] }
    expect(serialize(page)).toBe(JSON.stringify(z.encode(DocumentPage, page)))
    expect(JSON.parse(serialize(page))).toEqual(page)
  })

  it('leaves out every property the schema does not declare', () => {
    const page = {
      items: [{ ...item, storageKey: 'orgs/a/documents/b', content: 'the whole text' }],
      total: 1,
      types: [],
      secret: 'x',
    }
    const written = JSON.parse(serialize(page)) as { items: Record<string, unknown>[] }
    expect(Object.keys(written)).toEqual(['items', 'total', 'types'])
    expect(Object.keys(written.items[0] ?? {})).toEqual(Object.keys(item))
  })

  it('refuses an answer missing a required property', () => {
    const { title: _title, ...untitled } = item
    expect(() => serialize({ items: [untitled], total: 1, types: [] })).toThrow(/title/)
  })
})
