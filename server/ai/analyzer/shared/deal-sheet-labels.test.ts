import { describe, expect, it } from 'vitest'
import { emptyKeyTerms } from '../empty-result'
import { buildDealSheet } from '../local/deal-sheet/build-deal-sheet'
import { DEAL_SHEET_KEYS } from '../types'
import { DEAL_SHEET_LABELS } from './deal-sheet-labels'

describe('DEAL_SHEET_LABELS', () => {
  it('labels every line as the local engine labels it, in the same order', () => {
    const local = buildDealSheet({
      content: '',
      sentences: [],
      clauses: [],
      keyTerms: emptyKeyTerms(),
    })
    expect(local.lines.map((line) => [line.key, line.label])).toEqual(
      DEAL_SHEET_KEYS.map((key) => [key, DEAL_SHEET_LABELS[key]]),
    )
  })
})
