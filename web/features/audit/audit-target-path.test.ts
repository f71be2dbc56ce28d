import { describe, expect, it } from 'vitest'
import { auditTargetPath } from './audit-target-path'

const scope = { orgSlug: 'acme-law' }
const open = (targetType: string, targetId = 'id-1', targetExists = true) =>
  auditTargetPath(scope, { targetType, targetId, targetExists })

describe('auditTargetPath', () => {
  it.each([
    ['document', '/dashboard/acme-law/documents?document=id-1'],
    ['entity', '/dashboard/acme-law/entities?entity=id-1'],
    ['recording', '/dashboard/acme-law/voice?recording=id-1'],
    ['conversation', '/dashboard/acme-law/conversations?conversation=id-1'],
    ['member', '/dashboard/acme-law/members?member=id-1'],
    ['invitation', '/dashboard/acme-law/members?invitation=id-1'],
  ])('opens the %s itself', (type, path) => {
    expect(open(type)).toBe(path)
  })

  it('links nothing that is gone, has no id or has no screen', () => {
    expect(open('entity', 'id-1', false)).toBeNull()
    expect(
      auditTargetPath(scope, { targetType: 'entity', targetId: null, targetExists: true }),
    ).toBeNull()
    expect(open('organization')).toBeNull()
  })
})
