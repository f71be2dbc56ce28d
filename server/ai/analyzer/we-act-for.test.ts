import { describe, expect, it } from 'vitest'
import type { Party } from './types'
import { partyWeActFor } from './we-act-for'

const party = (name: string, term?: string, role?: string): Party => ({
  name,
  start: 0,
  end: name.length,
  ...(term ? { definedTerm: { text: term, start: 0, end: term.length } } : {}),
  ...(role ? { role } : {}),
})

const licence = [
  party('Acme Software Ltd', 'Licensor', 'Licensor'),
  party('Beta GmbH', 'Licensee', 'Licensee'),
]

describe('partyWeActFor', () => {
  it('finds the party holding a role by its extracted role or a synonym of it', () => {
    expect(partyWeActFor({ kind: 'role', role: 'licensee' }, licence)?.name).toBe('Beta GmbH')
    const services = [
      party('Northwind Inc.', 'Provider', 'Provider'),
      party('Contoso LLP', 'Client'),
    ]
    expect(partyWeActFor({ kind: 'role', role: 'customer' }, services)?.name).toBe('Contoso LLP')
    expect(partyWeActFor({ kind: 'role', role: 'supplier' }, services)?.name).toBe('Northwind Inc.')
  })

  it('takes the other party of a two-party contract when it holds the opposite role', () => {
    const employment = [
      party('Acme Corp.', 'Company', 'Company'),
      party('Jane Roe', 'Executive', 'Executive'),
    ]
    expect(partyWeActFor({ kind: 'role', role: 'employer' }, employment)?.name).toBe('Acme Corp.')
    // Three parties: the opposite role does not tell which of the other two it is.
    const three = [...employment, party('Beta Holdings LLC', 'Parent')]
    expect(partyWeActFor({ kind: 'role', role: 'employer' }, three)).toBeNull()
  })

  it('finds no party for a role nobody holds, nor for a name not extracted', () => {
    expect(partyWeActFor({ kind: 'role', role: 'employee' }, licence)).toBeNull()
    expect(partyWeActFor({ kind: 'party', party: 'Globex' }, licence)).toBeNull()
  })

  it('finds a chosen party by its name or defined term', () => {
    expect(partyWeActFor({ kind: 'party', party: 'beta gmbh' }, licence)?.name).toBe('Beta GmbH')
    expect(partyWeActFor({ kind: 'party', party: 'the Licensor' }, licence)?.name).toBe(
      'Acme Software Ltd',
    )
  })
})
