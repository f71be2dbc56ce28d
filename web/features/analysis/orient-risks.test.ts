import { describe, expect, it } from 'vitest'
import { orientRisks } from './orient-risks'
import type { Risk } from './types'

const nonCompete: Risk = {
  code: 'non-compete',
  severity: 'high',
  title: 'Non-compete',
  explanation: 'A party may not compete.',
  start: 0,
  end: 10,
  binds: ['Beta LLC'],
  severityIfBindsUs: 'high',
  severityIfBindsThem: 'low',
}

describe('orientRisks', () => {
  it('says whom a risk binds neutrally when no party is chosen', () => {
    expect(orientRisks([nonCompete], null)[0]).toMatchObject({
      severity: 'high',
      bindsLabel: 'Binds Beta LLC',
    })
  })

  it('keeps a restriction on our party high and makes one on the other side informational', () => {
    expect(orientRisks([nonCompete], 'Beta LLC')[0]).toMatchObject({
      severity: 'high',
      bindsLabel: 'Binds us',
    })
    expect(orientRisks([nonCompete], 'Acme Corp')[0]).toMatchObject({
      severity: 'low',
      bindsLabel: 'Binds them (informational)',
    })
  })

  it('leaves risks that name no party unchanged', () => {
    const plain: Risk = { ...nonCompete, binds: undefined }
    expect(orientRisks([plain], 'Acme Corp')[0]).toMatchObject({
      severity: 'high',
      bindsLabel: null,
    })
  })
})
