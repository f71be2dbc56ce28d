import { describe, expect, it } from 'vitest'
import {
  KEPT_PER_TERM,
  MIN_PAIR_COUNT,
  associationOf,
  learnAssociation,
  type AssociationExample,
} from './term-association'
import { passageRelevance, relevanceQuestion, RELEVANCE_MODEL } from './passage-relevance'
import { termsOf } from './yes-no-question'

const IDENTIFIED = termsOf('identified')

/** `n` copies of one example. */
const times = (n: number, example: AssociationExample) => Array.from({ length: n }, () => example)

/** Evidence holds "legend"; both evidence and the rest hold "information"; only the rest "users". */
const EXAMPLES: AssociationExample[] = [
  ...times(12, {
    terms: IDENTIFIED,
    text: 'Written information shall bear a legend identifying it as confidential.',
    evidence: true,
  }),
  ...times(12, {
    terms: IDENTIFIED,
    text: 'Users shall be uniquely identified before they reach any information system.',
    evidence: false,
  }),
  ...times(MIN_PAIR_COUNT - 1, {
    terms: IDENTIFIED,
    text: 'A rare stamp marks the originals.',
    evidence: true,
  }),
]

describe('the learned term association (decision 0150)', () => {
  it('weighs the words of evidence up and keeps no weight for words the rest holds as often', () => {
    const table = learnAssociation(EXAMPLES)
    const row = table[IDENTIFIED[0]!]!
    expect(row[termsOf('legend')[0]!]).toBeGreaterThan(0)
    expect(row[termsOf('information')[0]!]).toBeUndefined()
    expect(row[termsOf('users')[0]!]).toBeUndefined()
    // Seen fewer than MIN_PAIR_COUNT times: noise, not association.
    expect(row[termsOf('stamp')[0]!]).toBeUndefined()
  })

  it('keeps at most KEPT_PER_TERM words a term, the strongest', () => {
    const many = Array.from({ length: KEPT_PER_TERM + 5 }, (_, i) =>
      times(MIN_PAIR_COUNT + i, {
        terms: ['alpha'],
        text: `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
        evidence: true,
      }),
    ).flat()
    const negatives = times(200, { terms: ['alpha'], text: 'nothing', evidence: false })
    const row = learnAssociation([...many, ...negatives])['alpha']!
    expect(Object.keys(row)).toHaveLength(KEPT_PER_TERM)
    // The five seen least often (so weighing least) are the ones cut.
    expect(row[termsOf('wordaa')[0]!]).toBeUndefined()
  })

  it('scores a text by its strongest word per known term, 0 for a question it does not know', () => {
    const [ident, back, legend, destroy, tangible, survive] = termsOf(
      'identified return legend destroyed tangible survive',
    ) as [string, string, string, string, string, string]
    const table = { [ident]: { [legend]: 2, [tangible]: 1 }, [back]: { [destroy]: 3 } }
    expect(associationOf(table, [ident, back], 'bear a legend; destroyed')).toEqual({
      mean: 2.5,
      max: 3,
    })
    expect(associationOf(table, [ident, survive], 'tangible')).toEqual({ mean: 1, max: 1 })
    expect(associationOf(table, [survive], 'a legend')).toEqual({ mean: 0, max: 0 })
    expect(associationOf(undefined, [ident], 'a legend')).toEqual({ mean: 0, max: 0 })
  })

  it('lets the relevance model rank the clause holding associated words above one only sharing the word', () => {
    const question = relevanceQuestion(
      'Shall all Confidential Information be expressly identified by the Disclosing Party?',
    )
    const passages = [
      { content: 'Users shall be uniquely identified before accessing the network.', rank: 0 },
      {
        content:
          'Information disclosed in tangible form shall carry a stamp; information disclosed visually shall be reduced to writing within thirty days.',
        rank: 1,
      },
    ]
    const [stamp, tangible, thirty] = termsOf('stamp tangible thirty') as [string, string, string]
    const association = { [IDENTIFIED[0]!]: { [stamp]: 4, [tangible]: 3, [thirty]: 3 } }
    const [word, marking] = passageRelevance(question, passages, {
      ...RELEVANCE_MODEL,
      association,
    })
    expect(marking!).toBeGreaterThan(word!)
    // Without the table (zeros for its features) the sentence holding the word wins.
    const [wordAlone, markingAlone] = passageRelevance(question, passages, {
      ...RELEVANCE_MODEL,
      association: undefined,
    })
    expect(wordAlone!).toBeGreaterThan(markingAlone!)
  })
})
