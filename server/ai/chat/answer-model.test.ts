import { describe, expect, it } from 'vitest'
import { ANSWER_MODEL, KEEP_RULE, addressedAt } from './answer-model'
import { decideYesNo } from './decide-yes-no'
import type { ChatPassage } from './types'

const passages = (...texts: string[]): ChatPassage[] =>
  texts.map((content, i) => ({ n: i + 1, title: 'Test NDA', content }))

const FILLER = [
  'This Agreement is entered into by Alpha Ltd and Beta GmbH.',
  'The Recipient shall use the Confidential Information solely to evaluate the proposed acquisition.',
  'This Agreement shall be governed by the laws of England and Wales.',
]

const DEVELOP =
  'May the Recipient independently develop information similar to the Confidential Information?'

/** An addressed model sure the document is silent, whatever it reads. */
const silent = {
  ...ANSWER_MODEL,
  addressed: {
    ...ANSWER_MODEL.addressed,
    weights: ANSWER_MODEL.addressed.weights.map((_, i) => (i === 0 ? -10 : 0)),
  },
  thresholds: { add: 0.5, withdrawYes: 0.45, withdrawNo: 0 },
}

describe('the addressed model (decision 0141)', () => {
  it('answers Not addressed when a clause shares the question’s words but not its act (answered when silent)', () => {
    // "independently" and "information" are the question's words; the act is verifying, not
    // developing. 0130's model kept every decision of the rule and answered Yes.
    const found = decideYesNo(
      DEVELOP,
      passages(
        ...FILLER,
        'The Recipient agrees to review and independently verify the information and materials provided.',
      ),
    )
    expect(found).toMatchObject({ decision: 'not-addressed', passage: null })
  })

  it('keeps a clause whose verb is the asked act, even against a model sure of silence', () => {
    const found = decideYesNo(
      DEVELOP,
      passages(
        ...FILLER,
        'Nothing in this Agreement prevents the Recipient from independently developing information similar to the Confidential Information.',
      ),
      silent,
    )
    expect(found?.decision).toBe('yes')
    expect(found?.passage?.n).toBe(4)
  })

  it('keeps a definition holding every term of the question, even against a model sure of silence', () => {
    const found = decideYesNo(
      'Is oral information covered by the NDA?',
      passages(
        ...FILLER,
        '"Confidential Information" means any information disclosed by the Discloser, whether in writing, orally or by inspection.',
      ),
      silent,
    )
    expect(found?.decision).toBe('yes')
  })

  it('withdraws a Yes below its threshold, never a No at 0, and adds from `add`', () => {
    const yes = { ruleDecision: 'yes' as const }
    const no = { ruleDecision: 'no' as const }
    const none = { ruleDecision: 'not-addressed' as const }
    const t = { add: 0.6, withdrawYes: 0.45, withdrawNo: 0 }
    expect(addressedAt(yes, 0.4, t)).toBe(false)
    expect(addressedAt(yes, 0.5, t)).toBe(true)
    expect(addressedAt(no, 0.01, t)).toBe(true)
    expect(addressedAt(none, 0.55, t)).toBe(false)
    expect(addressedAt(none, 0.65, t)).toBe(true)
    // 0130's thresholds: a decision of the rule stays.
    expect(addressedAt(yes, 0.01, KEEP_RULE)).toBe(true)
  })
})
