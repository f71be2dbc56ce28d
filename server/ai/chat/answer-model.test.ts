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

/** An addressed model sure the document speaks to the question, whatever it reads. */
const speaking = {
  ...silent,
  addressed: {
    ...ANSWER_MODEL.addressed,
    weights: ANSWER_MODEL.addressed.weights.map((_, i) => (i === 0 ? 10 : 0)),
  },
}

/** What a clause holding none of the question's act says (SpeakingTo), for addressedAt. */
const SPEAKS = {
  unseen: 0,
  keyHeld: true,
  sentenceShare: 0,
  actShare: 0,
  spread: 0,
  actIsVerb: false,
  roleShare: 1,
  roleNear: true,
}

const KEEP_HALF = { add: 0.5, withdrawYes: 0.5, withdrawNo: 0 }

describe('the addressed model (decision 0141)', () => {
  it('withdraws a Yes from a clause sharing the question’s words but not its act (answered when silent)', () => {
    // "return" is the question's word; the clause is about notices. 0130 kept every decision of
    // the rule, whatever the addressed model said.
    const found = decideYesNo(
      'May the Recipient retain some Confidential Information even after the return or destruction of Confidential Information?',
      passages(
        ...FILLER,
        'All notices shall be in writing and shall be deemed given upon personal delivery or five days after mailing, return receipt requested.',
      ),
      silent,
    )
    expect(found).toMatchObject({ decision: 'not-addressed', passage: null })
  })

  it('reads a clause holding only the asked act for the model to judge (Not addressed with the evidence present)', () => {
    // "create a copy" drafted as "make copies": one question term, so no candidate of the rule;
    // before, the answer was Not addressed whatever any model said.
    const question =
      'May the Recipient create a copy of some Confidential Information in some circumstances?'
    const found = passages(
      ...FILLER,
      'A Reviewing Representative may make copies or notes of Confidential Information that shall be subject to this Agreement.',
    )
    expect(decideYesNo(question, found, speaking)).toMatchObject({
      decision: 'yes',
      passage: { n: 4 },
    })
    // The rule alone still leaves it: a loose clause is never the rule's decision.
    expect(decideYesNo(question, found, null)?.decision).toBe('not-addressed')
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

  it('lets the model decide a question of one content term, whose one word is no answer on its face', () => {
    // "identified" is the question's only term (the role phrases say who, not which act): a
    // sentence holding it holds "every term", and the rule's Yes stood whatever the model said.
    const question =
      'Shall all Confidential Information be expressly identified by the Disclosing Party?'
    const text = passages(
      ...FILLER,
      'Users shall be uniquely identified before accessing the network.',
    )
    expect(decideYesNo(question, text, silent)?.decision).toBe('not-addressed')
    expect(decideYesNo(question, text, speaking)?.decision).toBe('yes')
    const face = { ruleDecision: 'yes' as const, speaks: { ...SPEAKS, sentenceShare: 1 } }
    expect(addressedAt({ ...face, asked: { terms: ['identif'] } }, 0.01, KEEP_HALF)).toBe(false)
    expect(addressedAt({ ...face, asked: { terms: ['identif', 'writ'] } }, 0.01, KEEP_HALF)).toBe(
      true,
    )
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
