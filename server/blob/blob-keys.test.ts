import { describe, expect, it } from 'vitest'
import {
  assertOrgKey,
  orgBlobFolder,
  orgBlobKey,
  orgBlobPrefix,
  parseOrgBlobKey,
} from './blob-keys'

describe('blob key layout', () => {
  it('places every object of an organisation under orgs/<org>/<area>/', () => {
    expect(orgBlobKey('org-1', 'documents', 'doc-9', 'original')).toBe(
      'orgs/org-1/documents/doc-9/original',
    )
    expect(orgBlobFolder('org-1', 'documents', 'doc-9')).toBe('orgs/org-1/documents/doc-9/')
    expect(orgBlobPrefix('org-1')).toBe('orgs/org-1/')
    expect(parseOrgBlobKey('orgs/org-1/voice-recordings/u/1.webm')).toEqual({
      orgId: 'org-1',
      area: 'voice-recordings',
      rest: ['u', '1.webm'],
    })
  })

  it('refuses any segment that could reach another organisation or leave the store', () => {
    for (const segment of ['..', '.', '', 'a/b', '../org-2', 'a\\b', 'x\u0000', 'x\n'])
      expect(() => orgBlobKey('org-1', 'documents', segment)).toThrow(/Unsafe/)
    for (const orgId of ['..', 'org-1/../org-2', '', 'org-2/documents'])
      expect(() => orgBlobKey(orgId, 'documents', 'x')).toThrow(/Unsafe/)
    expect(() => orgBlobKey('org-1', 'documents')).toThrow(/name/)
    expect(() => orgBlobKey('org-1', 'buckets', 'b', 'x'.repeat(1100))).toThrow(/1024 bytes/)
  })

  it('accepts a key only under the organisation it is checked for', () => {
    expect(() => assertOrgKey('org-1', 'orgs/org-1/imports/a.csv', 'imports')).not.toThrow()
    expect(() => assertOrgKey('org-2', 'orgs/org-1/imports/a.csv')).toThrow(/outside/)
    expect(() => assertOrgKey('org-1', 'orgs/org-1/documents/a', 'imports')).toThrow(/outside/)
    expect(() => assertOrgKey('org-1', 'orgs/org-1/imports/../../org-2/imports/a')).toThrow(
      /Unsafe/,
    )
    expect(() => assertOrgKey('org-1', 'system/clean-stop')).toThrow(/outside/)
    expect(parseOrgBlobKey('orgs/org-1/unknown-area/x')).toBeNull()
  })
})
