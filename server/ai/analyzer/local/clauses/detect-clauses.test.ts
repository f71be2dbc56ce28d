import { describe, expect, it } from 'vitest'
import { segmentSentences } from '../sentences'
import { CLAUSE_CATEGORIES, GOVERNING_LAW } from '../../shared/cuad-taxonomy'
import { compileClauseModel, MAX_QUOTES, type CategoryModel } from './clause-model'
import { detectClauses } from './detect-clauses'
import { readFileSync } from 'node:fs'
import type { ClauseModel } from './clause-model'

const committedModel = JSON.parse(
  readFileSync(new URL('./model.json', import.meta.url), 'utf8'),
) as ClauseModel

/** One short contract per category, in ordinary drafting style, written for this test. */
const PASSAGES: Record<string, string> = {
  'Anti-Assignment':
    '14.2 Assignment. Neither party may assign or transfer this Agreement or any of its rights or obligations hereunder without the prior written consent of the other party, and any attempted assignment without such consent shall be void.',
  'Termination For Convenience':
    '9.3 Termination for Convenience. Customer may terminate this Agreement at any time, for any reason or no reason, upon thirty (30) days prior written notice to Supplier.',
  'Non-Compete':
    '7.1 Non-Competition. During the Term and for two (2) years thereafter, Distributor shall not, directly or indirectly, manufacture, sell or promote any products that compete with the Products in the Territory.',
  'Cap On Liability':
    "11.2 Limitation of Liability. In no event shall either party's aggregate liability arising out of or related to this Agreement exceed the total fees paid by Customer in the twelve (12) months preceding the claim.",
  Exclusivity:
    '2.1 Appointment. Supplier hereby appoints Distributor as its exclusive distributor of the Products in the Territory, and Supplier shall not appoint any other distributor or sell the Products to any third party in the Territory during the Term.',
  'License Grant':
    '3.1 License. Subject to the terms of this Agreement, Licensor hereby grants to Licensee a non-exclusive license to use, reproduce and distribute the Software in the Territory during the Term.',
  Insurance:
    '12.1 Insurance. Vendor shall maintain, at its own expense, commercial general liability insurance with limits of not less than $2,000,000 per occurrence and shall name Customer as an additional insured.',
  'Audit Rights':
    '6.4 Audit. Licensor shall have the right, upon fifteen (15) days written notice and no more than once per year, to audit and inspect the books and records of Licensee to verify the royalties payable hereunder.',
}

const PREAMBLE =
  'SERVICES AGREEMENT\n\nThis Services Agreement is entered into as of March 1, 2021 by and between Acme Inc., a Delaware corporation, and Widget Corp., a New York corporation.\n\n'

/** A contract with payment, delivery and notice terms only: none of the categories above. */
const PLAIN_CONTRACT = `${PREAMBLE}1. Services. Provider shall perform the consulting services described in Exhibit A in a professional manner.

2. Fees. Client shall pay Provider the fees set out in Exhibit B within thirty (30) days of the date of each invoice.

3. Delivery. Provider shall deliver each report to the address given by Client.

4. Notices. All notices under this Agreement shall be in writing and sent to the addresses first written above.

5. Counterparts. This Agreement may be executed in counterparts, each of which shall be deemed an original.`

function detect(content: string): ReturnType<typeof detectClauses> {
  return detectClauses(content, segmentSentences(content))
}

describe('detectClauses', () => {
  it.each(Object.entries(PASSAGES))('finds %s in a passage written for it', (category, passage) => {
    const content = `${PREAMBLE}${passage}\n`
    const found = detect(content).filter((clause) => clause.category === category)
    expect(found.length).toBeGreaterThan(0)
    expect(found[0]?.text).toContain(passage.slice(0, 40).replace(/^[\d.]+ /, ''))
  })

  it('finds none of those categories in a contract that lacks them', () => {
    const categories = new Set(detect(PLAIN_CONTRACT).map((clause) => clause.category))
    for (const category of Object.keys(PASSAGES)) expect(categories).not.toContain(category)
  })

  it('quotes exact spans with CUAD names and confidences between 0 and 1, sorted by start', () => {
    const content = `${PREAMBLE}${Object.values(PASSAGES).join('\n\n')}\n\n15. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of New York.`
    const clauses = detect(content)
    const known = new Set<string>([...CLAUSE_CATEGORIES, GOVERNING_LAW])
    expect(clauses.length).toBeGreaterThanOrEqual(Object.keys(PASSAGES).length)
    for (const clause of clauses) {
      expect(clause.text).toBe(content.slice(clause.start, clause.end))
      expect(known).toContain(clause.category)
      expect(clause.confidence).toBeGreaterThan(0)
      expect(clause.confidence).toBeLessThanOrEqual(1)
    }
    clauses.slice(1).forEach((clause, i) => {
      expect(clause.start).toBeGreaterThanOrEqual(clauses[i]?.start ?? 0)
    })
    expect(clauses.map((clause) => clause.category)).toContain(GOVERNING_LAW)
  })

  it('quotes at most MAX_QUOTES passages per category', () => {
    const passage = PASSAGES['Insurance'] ?? ''
    const content = `${PREAMBLE}${Array.from({ length: 8 }, () => passage).join('\n\n')}`
    // Without extension (a model with no extendThreshold), so adjacent quotes do not merge.
    const model = compileClauseModel({ ...committedModel, extendThreshold: undefined })
    const insurance = detectClauses(content, segmentSentences(content), model).filter(
      (clause) => clause.category === 'Insurance',
    )
    expect(insurance.length).toBe(MAX_QUOTES)
  })

  it('returns nothing for an empty document', () => {
    expect(detectClauses('', [])).toEqual([])
  })
})

/** A one-category model scoring a sentence by the words given (test-only weights). */
function insuranceModel(
  category: Partial<CategoryModel> = {},
  extendThreshold?: number,
  extendSentences?: number,
) {
  return compileClauseModel({
    version: 1,
    description: 'test',
    secondSentenceWeight: 0,
    ...(extendThreshold === undefined ? {} : { extendThreshold }),
    ...(extendSentences === undefined ? {} : { extendSentences }),
    categories: [
      {
        name: 'Insurance',
        bias: -0.5,
        threshold: 0.5,
        weights: { 'w:insurance': 8, 'w:insured': 4 },
        ...category,
      },
    ],
  })
}

describe('detectClauses citations (decision 0113)', () => {
  const operative =
    'Vendor shall maintain, at its own expense, commercial general liability insurance with limits of not less than $2,000,000 per occurrence.'

  it('quotes the operative sentence, never the heading above it that scores higher', () => {
    const content = `${PREAMBLE}12. INSURANCE\n\n${operative}\n`
    const found = detectClauses(content, segmentSentences(content), insuranceModel())
    expect(found.map((clause) => clause.text)).toEqual([operative])
  })

  it('never quotes a definition or the preamble, even when they score highest', () => {
    const content = `${PREAMBLE}"Insurance Policy" means the insurance policy of the Vendor.\n\n${operative}\n`
    const found = detectClauses(content, segmentSentences(content), insuranceModel())
    expect(found.map((clause) => clause.text)).toEqual([operative])
  })

  it('quotes a further sentence only when it reaches the category citeThreshold', () => {
    const second = 'Customer shall be named as an additional insured on each policy.'
    const content = `${PREAMBLE}${operative}\n\n${second}\n`
    const loose = detectClauses(content, segmentSentences(content), insuranceModel())
    expect(loose.map((clause) => clause.text)).toEqual([operative, second])
    const strict = detectClauses(
      content,
      segmentSentences(content),
      insuranceModel({ citeThreshold: 0.95 }),
    )
    expect(strict.map((clause) => clause.text)).toEqual([operative])
  })

  it("extends a quote over the clause's next sentence, not only its best one (cited-neighbour failure)", () => {
    // The labelled clause runs over two sentences; the second scores under the cite threshold but
    // above the model's extendThreshold, so the quote covers both.
    const second =
      'Certificates of such coverage shall be delivered on request, and each insured policy shall be primary.'
    const after = 'Vendor shall deliver the Products to the dock.'
    const content = `${PREAMBLE}${operative} ${second}\n\n${after}\n`
    const model = insuranceModel({ citeThreshold: 0.99 }, 0.5)
    const found = detectClauses(content, segmentSentences(content), model)
    expect(found.map((clause) => clause.text)).toEqual([`${operative} ${second}`])
  })

  it("extends a quote by at most the model's extendSentences either side (wide-quote failure)", () => {
    // Three insurance sentences in a row: a model that chose a reach of one sentence (decision
    // 0132) quotes the best and its next one, not the whole run up to EXTEND_SENTENCES.
    const second =
      'Certificates of such coverage shall be delivered on request, and each insured policy shall be primary.'
    const third = 'Each insured policy shall name Customer as an additional insured party.'
    const content = `${PREAMBLE}${operative} ${second} ${third}\n`
    const sentences = segmentSentences(content)
    const wide = detectClauses(content, sentences, insuranceModel({ citeThreshold: 0.99 }, 0.5))
    expect(wide.map((clause) => clause.text)).toEqual([`${operative} ${second} ${third}`])
    const reachOne = insuranceModel({ citeThreshold: 0.99 }, 0.5, 1)
    const found = detectClauses(content, sentences, reachOne)
    expect(found.map((clause) => clause.text)).toEqual([`${operative} ${second}`])
  })
})

describe('detectClauses presence (decision 0139)', () => {
  const mention = 'The insurance premium is listed in Schedule B.'
  const clause =
    'Vendor shall maintain, at its own expense, commercial general liability insurance with limits of not less than $2,000,000 per occurrence.'
  const insured = 'Customer shall be named as an additional insured on each insurance policy.'
  // A presence model that counts sentences at 0.5 or more: one gives σ(-1 + 2 ln 2) ≈ 0.60, two
  // σ(-1 + 2 ln 3) ≈ 0.77, against a presence threshold of 0.7 (test-only weights).
  const counting = (category: Partial<CategoryModel> = {}) =>
    compileClauseModel({
      version: 1,
      description: 'test',
      secondSentenceWeight: 0,
      presence: { weights: [-1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0] },
      categories: [
        {
          name: 'Insurance',
          bias: -0.5,
          threshold: 0.5,
          presenceBias: 0,
          presenceThreshold: 0.7,
          weights: { 'w:insurance': 8, 'w:insured': 4 },
          ...category,
        },
      ],
    })

  it('does not report a category on a lone passing mention (presence false-positive failure)', () => {
    const content = `${PREAMBLE}${mention}

3. Delivery. Provider shall deliver each report.
`
    const sentences = segmentSentences(content)
    // The document-score rule reports it: one sentence over the threshold is enough.
    expect(detectClauses(content, sentences, insuranceModel()).map((c) => c.text)).toEqual([
      mention,
    ])
    expect(detectClauses(content, sentences, counting())).toEqual([])
  })

  it('reports it when the evidence runs over several sentences, and quotes the best one', () => {
    const content = `${PREAMBLE}${clause}

${insured}
`
    const found = detectClauses(content, segmentSentences(content), counting({ citeThreshold: 1 }))
    expect(found.map((c) => c.category)).toEqual(['Insurance'])
    expect(found).toHaveLength(1)
  })
})
