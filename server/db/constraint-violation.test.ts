import { describe, expect, it } from 'vitest'
import { isForeignKeyViolation, isUniqueViolation } from './constraint-violation'

describe('isUniqueViolation', () => {
  it('recognises SQLSTATE 23505 on the error or its cause, optionally for one constraint', () => {
    const pgError = Object.assign(new Error('duplicate key'), {
      code: '23505',
      constraint: 'apps_org_slug_idx',
    })
    expect(isUniqueViolation(pgError)).toBe(true)
    expect(isUniqueViolation(new Error('query failed', { cause: pgError }))).toBe(true)
    expect(isUniqueViolation(pgError, 'apps_org_slug_idx')).toBe(true)
    expect(isUniqueViolation(pgError, 'other_idx')).toBe(false)
    expect(isUniqueViolation(Object.assign(new Error('fk'), { code: '23503' }))).toBe(false)
    expect(isUniqueViolation(null)).toBe(false)
  })

  it('recognises SQLSTATE 23503 as a foreign key violation, optionally for one constraint', () => {
    const pgError = Object.assign(new Error('violates foreign key'), {
      code: '23503',
      constraint: 'documents_app_fk',
    })
    expect(isForeignKeyViolation(new Error('query failed', { cause: pgError }))).toBe(true)
    expect(isForeignKeyViolation(pgError, 'documents_app_fk')).toBe(true)
    expect(isForeignKeyViolation(pgError, 'other_fk')).toBe(false)
    expect(isUniqueViolation(pgError)).toBe(false)
  })
})
