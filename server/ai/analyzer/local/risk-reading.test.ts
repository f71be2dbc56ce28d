import { describe, expect, it } from 'vitest'
import type { Clause } from '../types'
import { extractKeyTerms } from './key-terms'
import { assessRisks } from './risks'
import { segmentSentences } from './sentences'

/**
 * Risk rules read what a sentence does, not a keyword (issue 48, decision 0140). Each case names
 * its failure kind, "false presence": a risk claiming a category the sentence does not have; each
 * sentence raised its risk on the code before this record.
 */
const HEAD = [
  'SUPPLY AGREEMENT',
  'This Supply Agreement is made on May 1, 2021 between Acme Foods Inc. ("Supplier") and Bell Stores LLC ("Buyer").',
  '3. Buyer shall pay each invoice within thirty days.',
]

/** The codes of the risks raised on HEAD plus `body`, with `detected` giving clauses by the text they quote. */
function codes(body: string, detected: Record<string, [string, number]> = {}): string[] {
  const content = [...HEAD, body].join('\n\n')
  const sentences = segmentSentences(content)
  const clauses: Clause[] = Object.entries(detected).map(([text, [category, confidence]]) => {
    const start = content.indexOf(text)
    if (start < 0) throw new Error(`the fixture quotes ${text}`)
    return { start, end: start + text.length, text, category, confidence }
  })
  return assessRisks(content, sentences, clauses, extractKeyTerms(content, sentences)).map(
    (r) => r.code,
  )
}

describe('risk rules read the clause (false-presence failures, decision 0140)', () => {
  it('a non-exclusive grant with its hyphen broken over a line is no exclusivity', () => {
    expect(
      codes(
        '4. Supplier grants Buyer non- exclusive rights to sell the Products within Romania (the "Territory").',
      ),
    ).not.toContain('exclusivity')
  })

  it('exclusive rights denied ("does not and will not have exclusive rights") are no exclusivity', () => {
    expect(
      codes(
        '4. Buyer recognizes and agrees that it does not and will not have exclusive rights and that other sponsors may appear on the vehicle.',
      ),
    ).not.toContain('exclusivity')
  })

  it('"shall not purchase any tooling or other equipment" without approval is no exclusive dealing', () => {
    expect(
      codes(
        "4. Buyer shall not purchase any tooling or other capital equipment on Supplier's account without Supplier's prior written approval.",
      ),
    ).not.toContain('exclusivity')
  })

  it('a detected clause that ends the agreement only for a breach is no termination for convenience', () => {
    const text =
      '7. Either party may terminate this Agreement at any time in the event of a material breach by the other party that remains uncured after thirty days written notice.'
    const found = codes(text, { [text]: ['Termination For Convenience', 0.9] })
    expect(found).not.toContain('termination-for-convenience')
    expect(found).not.toContain('termination-for-convenience-unilateral')
  })

  it('a grant that only names a covenant not to compete is no non-compete', () => {
    expect(
      codes(
        '4. Subject to compliance with the covenant not to compete in Section 8.3 of the Asset Purchase Agreement, Supplier hereby grants to Buyer a worldwide, royalty-free license under the Patents.',
      ),
    ).not.toContain('non-compete')
  })

  it('a mention of a non-compete cites the detected covenant, not the mention (re-anchoring)', () => {
    const covenant =
      '9. During the Term, Buyer shall refrain from any business that competes with Supplier in the Territory.'
    const content = [
      ...HEAD,
      '4. Subject to compliance with the covenant not to compete in Section 9, Supplier hereby grants to Buyer a royalty-free license under the Patents.',
      covenant,
    ].join('\n\n')
    const sentences = segmentSentences(content)
    const start = content.indexOf(covenant)
    const clauses: Clause[] = [
      {
        start,
        end: start + covenant.length,
        text: covenant,
        category: 'Non-Compete',
        confidence: 0.6,
      },
    ]
    const risk = assessRisks(content, sentences, clauses, extractKeyTerms(content, sentences)).find(
      (r) => r.code === 'non-compete',
    )
    expect(risk && content.slice(risk.start, risk.end)).toBe(covenant)
  })

  it('a minimum number of meetings or years of record keeping is no minimum commitment', () => {
    expect(
      codes(
        '6. The Joint Steering Committee shall meet a minimum of four times per calendar year.',
      ),
    ).not.toContain('minimum-commitment')
    const records = '6. Buyer agrees to maintain all such records for a minimum of three years.'
    expect(codes(records, { [records]: ['Minimum Commitment', 0.9] })).not.toContain(
      'minimum-commitment',
    )
  })

  it('a minimum purchase floor is still a minimum commitment', () => {
    expect(
      codes(
        '6. Buyer shall purchase not less than 10,000 units of the Products in each calendar year.',
      ),
    ).toContain('minimum-commitment')
  })

  it('a change of control denied the effect of an assignment is no change-of-control right', () => {
    expect(
      codes(
        '12. A change of control of Buyer shall not be considered an assignment of this Agreement.',
      ),
    ).not.toContain('change-of-control')
  })

  it('a caption "Exclusivity." over a non-exclusive basis, and a freedom to deal, are no exclusivity', () => {
    const caption =
      '2.3 Exclusivity. During the Term, the parties will promote the Products on a non-exclusive basis in the Territory.'
    expect(codes(caption, { [caption]: ['Exclusivity', 0.8] })).not.toContain('exclusivity')
    const freedom =
      "8. Nothing in this Agreement shall limit Supplier's ability to enter into any relationship with any other person, whether or not exclusive."
    expect(codes(freedom, { [freedom]: ['Exclusivity', 0.8] })).not.toContain('exclusivity')
    const none = '8. Buyer shall have no exclusive Territory based on this Agreement.'
    expect(codes(none, { [none]: ['Exclusivity', 0.8] })).not.toContain('exclusivity')
  })

  it('a right to end for a breach ("breaches", "is unable for any reason to cure") is no termination for convenience', () => {
    for (const text of [
      '7. Supplier may at any time terminate this Agreement if Buyer breaches any material term of this Agreement.',
      '7. If Buyer fails or is unable for any reason to cure an Event of Default, then Supplier may terminate this Agreement at any time by written notice.',
    ])
      expect(codes(text)).not.toContain('termination-for-convenience-unilateral')
  })

  it('a renewal "unless terminated by either party upon notice" is a non-renewal, not termination for convenience', () => {
    const text =
      '7. This Agreement shall be automatically renewed for an additional one year period on each anniversary, unless terminated by either party upon ninety days written notice.'
    expect(codes(text, { [text]: ['Termination For Convenience', 0.9] })).not.toContain(
      'termination-for-convenience',
    )
  })

  it('IP that stays with the party that made it, or is not work made for hire, is no IP assignment', () => {
    for (const text of [
      '5. All rights to inventions made solely by employees of Supplier during the Term shall belong solely to Supplier.',
      '5. Supplier Inventions shall be the sole property of Supplier.',
      '5. Buyer agrees that the Supplier Materials are not "work made for hire" within the meaning of the Copyright Act.',
    ])
      expect(codes(text)).not.toContain('ip-assignment')
    expect(
      codes('5. All inventions made by Supplier in performing the Services shall vest in Buyer.'),
    ).toContain('ip-assignment')
  })

  it('a severance tax is no severance payment', () => {
    expect(
      codes(
        '6. Buyer shall pay all production, severance, gross receipts, ad valorem and similar taxes levied on the Products.',
      ),
    ).not.toContain('severance-exit-fee')
  })

  it('an event denied being a change of control is no change-of-control right', () => {
    expect(
      codes(
        '12. An initial public offering of Buyer shall not be deemed a Change of Control under this Agreement.',
      ),
    ).not.toContain('change-of-control')
  })

  it('arm\'s-length dealings with affiliates and a first refusal on "no more favorable" terms are no most-favoured-nation promise', () => {
    for (const text of [
      "6. Supplier may deal with any of its Affiliates, provided that the terms of any such transaction shall be no less favorable to Buyer than terms obtainable at arm's length.",
      '6. If the parties fail to agree, Supplier may offer the opportunity to any third party on terms no more favorable than those offered to Buyer.',
    ])
      expect(codes(text)).not.toContain('most-favoured-nation')
    expect(
      codes(
        '6. Supplier shall offer Buyer prices no less favorable than the prices it offers any other customer.',
      ),
    ).toContain('most-favoured-nation')
  })

  it('a ban on harassment or on passing licensed goods on to a third party is no exclusive dealing', () => {
    expect(
      codes(
        "4. Each Party's employees who perform work hereunder will not engage in any harassment of the other Party's employees or customers.",
      ),
    ).not.toContain('exclusivity')
    expect(
      codes(
        '4. Buyer will not sell, lease, lend, transfer, assign or otherwise distribute the licensed programs to any third party.',
      ),
    ).not.toContain('exclusivity')
    // A promise to buy from no one else still is.
    expect(
      codes('4. Buyer shall not purchase the Products from any other supplier during the Term.'),
    ).toContain('exclusivity')
  })

  it('inventions kept by the party whose staff made them (a name in camel case) are no IP assignment', () => {
    expect(
      codes(
        '5. All rights to inventions made solely by employees of iBio during the term of this Agreement shall belong solely to iBio.',
      ),
    ).not.toContain('ip-assignment')
  })

  it("rights or goodwill from a licensee's use of the licensor's marks are no IP assignment", () => {
    expect(
      codes(
        '5. Upon request, Buyer shall transfer to Supplier any rights which accrue to Buyer arising from its use of the Trademarks.',
      ),
    ).not.toContain('ip-assignment')
    expect(
      codes(
        "5. Buyer hereby assigns to Supplier all goodwill and all other rights developed in connection with Buyer's use of Supplier's trademarks.",
      ),
    ).not.toContain('ip-assignment')
    // Work product the client pays for still passes.
    expect(
      codes(
        '5. Supplier hereby assigns to Buyer all right, title and interest in the deliverables and all intellectual property rights therein.',
      ),
    ).toContain('ip-assignment')
  })
})
