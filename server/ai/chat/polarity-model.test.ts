import { describe, expect, it } from 'vitest'
import { ANSWER_MODEL } from './answer-model'
import { decideYesNo, readByRule } from './decide-yes-no'
import {
  POLARITY_FEATURES,
  POLARITY_MODEL,
  learnedPolarity,
  polarityFeatures,
  readingDirection,
} from './polarity-model'
import { readYesNoQuestion } from './yes-no-question'
import type { ChatPassage } from './types'

const passages = (...texts: string[]): ChatPassage[] =>
  texts.map((content, i) => ({ n: i + 1, title: 'Test NDA', content }))

const FILLER = [
  'This Agreement is entered into by Alpha Ltd and Beta GmbH.',
  'This Agreement shall be governed by the laws of England and Wales.',
]

/** A model sure of one answer whatever it reads: what a model that learned a prior does. */
const sure = (answer: 'yes' | 'no') => ({
  features: [...POLARITY_FEATURES],
  weights: POLARITY_FEATURES.map((_, i) => (i === 0 ? (answer === 'yes' ? 10 : -10) : 0)),
  confidence: 0.6,
})

const readOf = (question: string, ...texts: string[]) =>
  readByRule(readYesNoQuestion(question)!, passages(...FILLER, ...texts))

const SHARE = 'May the Recipient disclose Confidential Information to third parties?'
const CONSENT =
  'The Recipient shall not, without the prior written consent of the Discloser, disclose any Confidential Information to any third party.'

describe('the learned polarity (decision 0134)', () => {
  it('keeps a prohibition with a consent exception "No, not without consent" against a model sure of Yes', () => {
    const read = readOf(SHARE, CONSENT)
    expect(read.polarity).toBe('no')
    expect(read.unlessConsent).toBe(true)
    expect(learnedPolarity(read, sure('yes'), 0.6)).toBe('no')
    const answer = decideYesNo(SHARE, passages(...FILLER, CONSENT), {
      ...ANSWER_MODEL,
      polarity: sure('yes'),
    })
    expect(answer?.decision).toBe('no')
    expect(answer?.unlessConsent).toBe(true)
  })

  it('does not read "shall not, without prior written consent, disclose" as a permission', () => {
    const read = readOf(SHARE, CONSENT)
    // The consent names who may lift the prohibition; the sentence still prohibits the asked act.
    expect(readingDirection(read)).toBe('no')
  })

  it('keeps a plain prohibition of the asked act against a model sure of Yes (a learned prior)', () => {
    const read = readOf(
      'May the Recipient reverse engineer the Products?',
      'The Recipient shall not reverse engineer, decompile or disassemble the Products.',
    )
    expect(read.polarity).toBe('no')
    expect(readingDirection(read)).toBe('no')
    expect(learnedPolarity(read, sure('yes'), 0.6)).toBe('no')
  })

  it('keeps a plain permission of the asked act against a model sure of No', () => {
    const read = readOf(
      'May the Recipient disclose Confidential Information to its employees?',
      'The Recipient may disclose Confidential Information to its employees who need to know it.',
    )
    expect(read.polarity).toBe('yes')
    expect(learnedPolarity(read, sure('no'), 0.6)).toBe('yes')
  })

  it('decides where the quoted reading leaves the answer open (a carve-out), when sure enough', () => {
    const read = readOf(
      'May the Recipient disclose Confidential Information to its employees?',
      'The Recipient shall not disclose Confidential Information to any person, except to its employees who need to know it.',
    )
    expect(read.polarity).toBe('yes')
    expect(readingDirection(read)).toBeNull()
    expect(learnedPolarity(read, sure('no'), 0.6)).toBe('no')
    // Below its confidence the rule's polarity stands.
    expect(learnedPolarity(read, sure('no'), 1.01)).toBe('yes')
  })

  it('keeps "shall not survive" No to a survival question against a model sure of Yes, but not "shall not terminate"', () => {
    const survive = 'May the obligations of the Agreement survive its termination?'
    const ends = readOf(
      survive,
      'The obligations of this Agreement shall not survive its termination for any reason.',
    )
    expect(ends.polarity).toBe('no')
    expect(learnedPolarity(ends, sure('yes'), 0.6)).toBe('no')
    // A negated ending affirms survival; its modality does not settle the answer.
    const continues = readOf(
      survive,
      'The obligations of this Agreement shall not terminate upon its termination.',
    )
    expect(readingDirection(continues)).toBeNull()
  })

  it('keeps a requirement released in so many words a No against a model sure of Yes (decision 0141)', () => {
    // ContractNLI's "shall all Confidential Information be expressly identified?": the model,
    // reading a marking clause, said Yes where the clause says marking is not required.
    const asked = 'Shall all Confidential Information be expressly identified by the Discloser?'
    for (const text of [
      'For convenience, the Discloser may, but is not required to, mark written Confidential Information with the legend "Confidential".',
      'Information disclosed by the Discloser need not be identified as confidential to be deemed Confidential Information.',
    ]) {
      const read = readOf(asked, text)
      expect(read.polarity).toBe('no')
      expect(readingDirection(read)).toBe('no')
      expect(learnedPolarity(read, sure('yes'), 0.6)).toBe('no')
    }
    // A prohibition is not a release: "shall not disclose unless marked" stays open to the model.
    const prohibition = readOf(
      'Must the Recipient return the Confidential Information?',
      'The Recipient shall not return the Confidential Information except on request.',
    )
    expect(readingDirection(prohibition)).toBeNull()
  })

  it('answers nothing when the rule found no clause', () => {
    const read = readOf('May the Recipient reverse engineer the Products?')
    expect(read.polarity).toBeNull()
    expect(learnedPolarity(read, sure('yes'), 0.6)).toBeNull()
  })

  it('has one feature per name, and the committed model names them in that order', () => {
    const read = readOf(SHARE, CONSENT)
    expect(polarityFeatures(read)).toHaveLength(POLARITY_FEATURES.length)
    expect(POLARITY_MODEL.features).toEqual([...POLARITY_FEATURES])
    expect(POLARITY_MODEL.weights).toHaveLength(POLARITY_FEATURES.length)
  })
})
