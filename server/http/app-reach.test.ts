import { describe, expect, it } from 'vitest'
import { AppError } from '../errors/app-error'
import { assertNamedAppsInReach, assertWritableIn } from './app-reach'

const appA = '0b5c1d8e-3f7a-4c2b-9e1d-5a6b7c8d9e0f'
const appB = '7e2f4a6c-1b3d-4e5f-8a9b-0c1d2e3f4a5b'

/** The problem code `check` throws, or null when it passes. */
function codeOf(check: () => void): string | null {
  try {
    check()
    return null
  } catch (error) {
    if (error instanceof AppError) return error.code
    throw error
  }
}

describe('assertNamedAppsInReach', () => {
  const bound = { appId: appA }

  it('refuses another app under any of the names, and passes its own app in any case', () => {
    for (const name of ['appId', 'app_id', '_app'])
      expect(codeOf(() => assertNamedAppsInReach(bound, { [name]: appB }))).toBe('app_not_found')
    expect(codeOf(() => assertNamedAppsInReach(bound, { appId: appA.toUpperCase() }))).toBeNull()
    expect(codeOf(() => assertNamedAppsInReach(bound, { appId: appA, app_id: appB }))).toBe(
      'app_not_found',
    )
  })

  it('passes no app named (absent, null, empty), input that is no object and unbound principals', () => {
    for (const input of [{}, { appId: null }, { appId: '' }, undefined, null, 'appId', [appB]])
      expect(codeOf(() => assertNamedAppsInReach(bound, input))).toBeNull()
    for (const principal of [{ appId: null }, {}])
      expect(codeOf(() => assertNamedAppsInReach(principal, { appId: appB }))).toBeNull()
  })
})

describe('assertWritableIn', () => {
  it('refuses another app with 404 and no app with 403 for a bound principal only', () => {
    expect(codeOf(() => assertWritableIn({ appId: appA }, appB))).toBe('app_not_found')
    expect(codeOf(() => assertWritableIn({ appId: appA }, null))).toBe('outside_app_scope')
    expect(codeOf(() => assertWritableIn({ appId: appA }, appA))).toBeNull()
    expect(codeOf(() => assertWritableIn({ appId: null }, null))).toBeNull()
  })
})
