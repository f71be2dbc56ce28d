import { describe, expect, it } from 'vitest'
import {
  decideFate,
  holdReaches,
  isLegalHoldViolation,
  type HoldableItem,
  type HoldInForce,
  type RetentionVerdict,
} from './legal-hold'

const DOC: HoldableItem = {
  kind: 'document',
  id: 'doc-1',
  appId: 'app-1',
  createdBy: 'user-1',
  transcriptOf: 'rec-1',
}

describe('holdReaches', () => {
  it.each<[string, HoldInForce, HoldableItem, boolean]>([
    ['the item itself', { targetKind: 'document', targetId: 'doc-1' }, DOC, true],
    ['its app', { targetKind: 'app', targetId: 'app-1' }, DOC, true],
    ['its creator', { targetKind: 'member', targetId: 'user-1' }, DOC, true],
    ['the recording it transcribes', { targetKind: 'recording', targetId: 'rec-1' }, DOC, true],
    ['another document', { targetKind: 'document', targetId: 'doc-2' }, DOC, false],
    ['another app', { targetKind: 'app', targetId: 'app-2' }, DOC, false],
    ['another member', { targetKind: 'member', targetId: 'user-2' }, DOC, false],
    [
      'a recording of the same id as the item',
      { targetKind: 'recording', targetId: 'doc-1' },
      DOC,
      false,
    ],
    [
      'an org-wide item without app, by its app (none)',
      { targetKind: 'app', targetId: 'app-1' },
      { kind: 'storage_object', id: 'o-1', appId: null, createdBy: 'user-2' },
      false,
    ],
    [
      'a storage object by its uploader',
      { targetKind: 'member', targetId: 'user-2' },
      { kind: 'storage_object', id: 'o-1', createdBy: 'user-2' },
      true,
    ],
    [
      'a conversation by its app',
      { targetKind: 'app', targetId: 'app-1' },
      { kind: 'conversation', id: 'c-1', appId: 'app-1' },
      true,
    ],
    [
      'a member by their user id',
      { targetKind: 'member', targetId: 'user-1' },
      { kind: 'member', id: 'user-1' },
      true,
    ],
    [
      'an app by a hold on a document (the app itself is not held; its held document is)',
      { targetKind: 'document', targetId: 'doc-1' },
      { kind: 'app', id: 'app-1' },
      false,
    ],
    [
      'a transcript only through the recording, not a recording through its transcript',
      { targetKind: 'document', targetId: 'doc-1' },
      { kind: 'recording', id: 'rec-1', appId: null },
      false,
    ],
  ])('%s: %s', (_name, hold, item, reaches) => {
    expect(holdReaches(hold, item)).toBe(reaches)
  })
})

describe('decideFate: hold beats retain beats delete', () => {
  const onDoc: HoldInForce = { targetKind: 'document', targetId: 'doc-1' }
  const elsewhere: HoldInForce = { targetKind: 'document', targetId: 'doc-9' }
  it.each<[HoldInForce[], RetentionVerdict | null, string, string]>([
    [[onDoc], 'due', 'keep', 'legal_hold'],
    [[onDoc], 'retain', 'keep', 'legal_hold'],
    [[onDoc], null, 'keep', 'legal_hold'],
    [[elsewhere], 'due', 'delete', 'retention'],
    [[], 'retain', 'keep', 'retention'],
    [[elsewhere], 'retain', 'keep', 'retention'],
    [[], 'due', 'delete', 'retention'],
    [[], null, 'delete', 'request'],
  ])('holds %j, retention %s: %s because %s', (holds, retention, fate, because) => {
    expect(decideFate(DOC, holds, retention)).toMatchObject({ fate, because })
  })

  it('names the holds that keep the item, only those', () => {
    expect(decideFate(DOC, [elsewhere, onDoc], 'due')).toEqual({
      fate: 'keep',
      because: 'legal_hold',
      holds: [onDoc],
    })
  })
})

describe('isLegalHoldViolation', () => {
  it('recognises the SQLSTATE on the error or its cause, nothing else', () => {
    expect(isLegalHoldViolation({ code: 'LH409' })).toBe(true)
    expect(isLegalHoldViolation(new Error('x', { cause: { code: 'LH409' } }))).toBe(true)
    expect(isLegalHoldViolation({ code: '23503' })).toBe(false)
    expect(isLegalHoldViolation(null)).toBe(false)
  })
})
