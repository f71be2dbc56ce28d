import { describe, expect, it } from 'vitest'
import { BALANCED_SUPPLY_AGREEMENT, RISKY_SERVICES_AGREEMENT } from '../../../test/test-contracts'
import { analyzeLocal } from './analyze-local'
import { extractKeyTerms } from './key-terms'
import { EVERY_PARTY } from './risk-orientation'
import { assessRisks } from './risks'
import { segmentSentences } from './sentences'

function riskCodes(content: string): string[] {
  return analyzeLocal(content, 'risks').risks.map((risk) => risk.code)
}

/** A neutral contract body; each case adds the one clause that should trigger its rule. */
function contractWith(clause: string): string {
  return [
    'CONSULTING AGREEMENT',
    'This Consulting Agreement is made on April 2, 2022 between Alder Advisory LLP ("Consultant") and Birch Biotech Inc. ("Client").',
    '1. Services. Consultant will advise Client on regulatory strategy as requested from time to time.',
    "2. Liability. Each party's total liability under this Agreement shall not exceed the fees paid under it.",
    '3. Law. This Agreement is governed by the laws of the State of Illinois.',
    `4. ${clause}`,
  ].join('\n\n')
}

describe('assessRisks', () => {
  it.each([
    [
      'indemnity-broad',
      'Client shall indemnify Consultant against any and all losses arising out of or relating to this Agreement.',
    ],
    [
      'auto-renewal-short-notice',
      'This Agreement renews automatically for successive one-year terms unless terminated on ten (10) days notice.',
    ],
    [
      'termination-for-convenience',
      'Either party may terminate this Agreement for convenience on thirty days written notice.',
    ],
    [
      'termination-for-convenience-unilateral',
      'Client may terminate this Agreement for convenience on thirty days written notice.',
    ],
    [
      'exclusivity',
      'Consultant is appointed as the exclusive provider of regulatory advice to Client.',
    ],
    [
      'non-compete',
      'During the term Consultant shall not provide services to any business that competes with Client.',
    ],
    [
      'change-of-control',
      'A change of control of either party shall require the prior written consent of the other party.',
    ],
    [
      'liability-carve-out',
      'Nothing in this Agreement shall limit either party’s liability for breach of confidentiality.',
    ],
    [
      'liquidated-damages',
      'Late Delivery. For each week of delay Consultant shall pay Client liquidated damages of $1,000.',
    ],
    [
      'ip-assignment',
      'Work Product. Consultant hereby assigns to Client all right, title and interest in the reports it prepares.',
    ],
    [
      'minimum-commitment',
      'Volume. Client shall purchase at least 500 hours of advice in each contract year.',
    ],
    [
      'most-favoured-nation',
      'Pricing. Consultant shall offer Client rates no less favourable than the rates it offers any other client.',
    ],
    [
      'liquidated-damages',
      'Service Levels. For each month below the service level Consultant shall pay Client a penalty equal to five percent of the monthly fees.',
    ],
    [
      'minimum-commitment',
      'Funding. Client agrees to commit funding in an amount of at least $500,000 to the studies in each year.',
    ],
    [
      'minimum-commitment',
      'Guarantee. Client shall pay Consultant an annual minimum guarantee of $100,000.',
    ],
    [
      'severance-exit-fee',
      'Exit Fee. If Client ends this Agreement before the second anniversary it shall pay Consultant an early termination fee equal to six months of fees.',
    ],
    [
      'severance-exit-fee',
      'Severance. On a termination without cause Client shall pay Consultant severance equal to twelve months of base fees.',
    ],
    [
      'equity-funding-commitment',
      'Investment. Client shall invest $2,000,000 in the equity of Consultant by subscribing for 400,000 preferred shares.',
    ],
    [
      'equity-funding-commitment',
      'Funding. Client shall fund the development budget with capital contributions of up to $500,000 per quarter.',
    ],
    [
      'ip-assignment',
      'Inventions. All inventions conceived by Consultant in performing the Services shall vest in Client.',
    ],
    [
      'ip-assignment',
      'Marks. Consultant hereby assigns to Client any rights it may acquire in the Client trademarks.',
    ],
    [
      'change-of-control',
      'Acquirer. If a third party acquires "control" (as defined above) of Client, Consultant may end this Agreement on notice.',
    ],
    [
      'liquidated-damages',
      'Staff. In the event of a breach of Section 6, the hiring party shall pay the other party an amount equal to six months of the salary of the employee hired.',
    ],
    [
      'minimum-commitment',
      'Operation. Client must keep the plant running for no less than 6,000 hours in each year.',
    ],
    [
      'minimum-commitment',
      'Quotas. Client acknowledges that meeting the sales quotas in Schedule 2 is essential to this Agreement.',
    ],
    [
      'minimum-commitment',
      'Royalty Floor. The royalty payable to Consultant shall never be less than $0.10 per unit sold.',
    ],
    [
      'minimum-commitment',
      'Volume. Consultant may end this Agreement if Client fails to achieve the annual revenues forecast in Schedule 3.',
    ],
    [
      'indemnity-one-sided',
      'Indemnity. Consultant shall indemnify Client against third-party claims that the reports infringe a patent.',
    ],
    [
      'change-of-control',
      'Ownership. Client may end this Agreement on notice if there is any material change in the organisation, management or ownership of Consultant.',
    ],
    [
      'change-of-control',
      'Control. Consultant may terminate this Agreement if control of Client shall pass from its present shareholders to persons Consultant regards as unsuitable.',
    ],
    [
      'change-of-control',
      'Sale of Shares. The rights of Consultant shall cease upon the sale of a controlling interest in Consultant unless Client has approved the sale in writing.',
    ],
    [
      'change-of-control',
      'Mergers. Consultant will not, without the prior written consent of Client, merge or consolidate with any other entity.',
    ],
    [
      'change-of-control',
      'Assignment. Either party may assign this Agreement without consent to a successor by merger, provided that it gives the other party written notice of the assignment.',
    ],
    [
      'change-of-control',
      'Shareholding. Client may terminate this Agreement if the shareholding structure of Consultant changes.',
    ],
    [
      'liability-exclusion',
      'Exclusion. Client shall not be liable for any loss of profits, business or data suffered by Consultant.',
    ],
  ])('raises %s on a clause written to trigger it, and not without it', (code, clause) => {
    expect(riskCodes(contractWith(clause))).toContain(code)
    expect(
      riskCodes(contractWith('Notices. Notices must be given in writing to the addresses above.')),
    ).not.toContain(code)
  })

  it.each([
    [
      'indemnity-one-sided',
      'Indemnity. Each party shall indemnify the other against third-party claims caused by its breach.',
    ],
    [
      'severance-exit-fee',
      'Fees. Consultant may charge a reasonable fee for any extra work Client asks for.',
    ],
    [
      'equity-funding-commitment',
      'Records. Consultant shall keep records of shares of time spent on each task.',
    ],
    [
      'liability-exclusion',
      'Cooperation. Client shall be responsible for providing accurate data to Consultant.',
    ],
    [
      'ip-assignment',
      'Background. Intellectual property a party owned before this Agreement shall remain the sole property of that party.',
    ],
    [
      'exclusivity',
      'Relationship. Nothing in this Agreement shall be construed as creating an exclusive arrangement between the parties.',
    ],
    [
      'exclusivity',
      'Marks. Consultant acknowledges that the Client Marks are the sole and exclusive property of Client.',
    ],
    [
      'exclusivity',
      'Patents. Client shall have the exclusive right, but not the obligation, to prosecute the patents.',
    ],
    [
      'exclusivity',
      'Equipment. Consultant shall not purchase any equipment for Client other than through the agreed budget.',
    ],
    [
      'non-compete',
      'Other Agreements. Consultant is not subject to any noncompete or confidentiality agreement that this engagement would breach.',
    ],
    [
      'change-of-control',
      '"Change of Control" shall mean the acquisition of more than half of the voting shares of a party.',
    ],
    [
      'change-of-control',
      'Publicity. A party may disclose this Agreement to a prospective buyer in connection with a proposed merger or an assignment of this Agreement.',
    ],
    [
      'change-of-control',
      'Assignment. Neither party may assign this Agreement without the consent of the other, except that either party may assign it without consent to a successor by merger or to a buyer of all or substantially all of its assets.',
    ],
    [
      'change-of-control',
      'Assignment. No consent is required for an assignment in connection with a merger, reorganisation or sale of all or substantially all of the assigning party’s business.',
    ],
    [
      'change-of-control',
      'Successors. This Agreement binds and benefits the successors and assigns of the parties, including by way of merger or change of control.',
    ],
    [
      'change-of-control',
      'Customers. If a change in control of any existing third party customer of Consultant occurs, Consultant shall tell Client.',
    ],
    [
      'change-of-control',
      'Filings. Holdings of Client shares will be reflected on Statements of Ownership and Change in Ownership filed with the regulator.',
    ],
    [
      'liability-carve-out',
      'Survival. Except as expressly set forth in this Agreement, the covenants in this Agreement and the liabilities for the breach of any obligations in this Agreement shall survive the closing.',
    ],
    [
      'change-of-control',
      'Registration. Client shall register the change in ownership with the companies registry within ten days.',
    ],
    [
      'liquidated-damages',
      'Late Payment. If Client is in breach of its duty to pay, Client shall pay interest of 1% a month on the amount of $100 or more overdue.',
    ],
    [
      'liquidated-damages',
      'Resale. Consultant shall not resell the reports unless the buyer accepts the licence terms under penalty of perjury.',
    ],
    [
      'minimum-commitment',
      'Records. Consultant shall keep its records for not less than three (3) years after the end of the term.',
    ],
    [
      'minimum-commitment',
      'Insurance. Consultant shall maintain professional liability insurance of not less than $2,000,000.',
    ],
    [
      'minimum-commitment',
      'No Minimum. Nothing in this Agreement obligates Client to order any minimum level of services.',
    ],
    [
      'minimum-commitment',
      'Plans. The parties shall share their sales milestone payments forecasts twice a year.',
    ],
  ])('raises no %s on a passage that only resembles it', (code, clause) => {
    expect(riskCodes(contractWith(clause))).not.toContain(code)
  })

  it('reports an IP assignment expected but absent in a consulting agreement, without a citation', () => {
    const risk = analyzeLocal(
      contractWith('Notices. Notices must be given in writing to the addresses above.'),
      'risks',
    ).risks.find((r) => r.code === 'ip-assignment-missing')
    expect(risk).toMatchObject({ absent: true, start: 0, end: 0 })
    const withAssignment = contractWith(
      'Work Product. Consultant hereby assigns to Client all right, title and interest in the reports it prepares.',
    )
    expect(riskCodes(withAssignment)).not.toContain('ip-assignment-missing')
    const supply = contractWith('Notices. Notices must be given in writing.').replace(
      'CONSULTING AGREEMENT',
      'SUPPLY AGREEMENT',
    )
    expect(riskCodes(supply)).not.toContain('ip-assignment-missing')
  })

  it('names the party that bears each risk, or mutual for a clause missing on both sides', () => {
    const content = contractWith(
      'Late Delivery. For each week of delay Consultant shall pay Client liquidated damages of $1,000.',
    )
    const risks = analyzeLocal(content, 'risks').risks
    expect(risks.find((r) => r.code === 'liquidated-damages')?.binds).toEqual([
      'Alder Advisory LLP',
    ])
    for (const risk of risks) expect(risk.binds?.length).toBeGreaterThan(0)
  })

  it('names a bearer for every risk when no party could be read, or every party', () => {
    // No preamble names the parties: the passage's own subject bears a risk, else every party.
    const content = [
      'TERMS OF SUPPLY',
      '1. ORBITEX shall not sell any product that competes with the Products during the term.',
      '2. Indemnity. TELVANO agrees to indemnify ORBITEX against any and all losses arising out of or relating to this Agreement.',
      '3. Either party may terminate this Agreement for convenience on thirty days written notice.',
    ].join('\n\n')
    const risks = analyzeLocal(content, 'risks').risks
    expect(risks.length).toBeGreaterThan(2)
    for (const risk of risks) expect(risk.binds?.length ?? 0).toBeGreaterThan(0)
    expect(risks.find((r) => r.code === 'non-compete')?.binds).toEqual(['ORBITEX'])
    expect(risks.find((r) => r.code === 'indemnity-broad')?.binds).toEqual(['TELVANO'])
    expect(risks.find((r) => r.code === 'liability-missing')?.binds).toEqual([EVERY_PARTY])
    expect(risks.find((r) => r.code === 'termination-for-convenience')?.binds).toEqual([
      EVERY_PARTY,
    ])
  })

  it('takes the notice period of an auto-renewal from the passage it cites, not from another clause', () => {
    const long = contractWith(
      'Termination. Either party may terminate this Agreement on thirty (30) days notice.\n\n5. Renewal. This Agreement renews automatically for successive one-year terms unless either party gives notice of non-renewal at least one hundred eighty (180) days before the end of the term.',
    )
    expect(riskCodes(long)).not.toContain('auto-renewal-short-notice')
    const short = contractWith(
      'Termination. Either party may terminate this Agreement on ninety (90) days notice.\n\n5. Renewal. This Agreement renews automatically for successive one-year terms unless either party gives notice of non-renewal at least ten (10) days before the end of the term.',
    )
    const risk = analyzeLocal(short, 'risks').risks.find(
      (r) => r.code === 'auto-renewal-short-notice',
    )
    expect(risk?.explanation).toMatch(/ten \(10\) days/)
    expect(risk?.explanation).not.toMatch(/90/)
  })

  it.each([
    'This Agreement shall be governed by and construed in accordance with Belgian law.',
    'This Agreement is governed by the laws of the Kingdom of Belgium.',
  ])('raises no governing-law risk beside a clause that names the law: %s', (clause) => {
    const content = contractWith(clause).replace(
      '3. Law. This Agreement is governed by the laws of the State of Illinois.',
      '3. Fees. Fees are due monthly.',
    )
    expect(riskCodes(content).filter((code) => code.startsWith('governing-law'))).toEqual([])
  })

  it('states the notice period its citation states, whatever key term was read elsewhere', () => {
    const content = contractWith(
      'Renewal. This Agreement renews automatically for successive one-year terms unless either party gives notice of non-renewal at least ten (10) days before the end of the term.',
    )
    const sentences = segmentSentences(content)
    const elsewhere = content.indexOf('regulatory strategy')
    const misread = {
      ...extractKeyTerms(content, sentences),
      noticePeriod: { value: '180 days', start: elsewhere, end: elsewhere + 10 },
    }
    const risk = assessRisks(content, sentences, [], misread).find(
      (r) => r.code === 'auto-renewal-short-notice',
    )
    expect(risk?.explanation).toMatch(/ten \(10\) days/)
    const longNotice = content.replace('ten (10) days', 'one hundred eighty (180) days')
    const longSentences = segmentSentences(longNotice)
    const misreadShort = {
      ...extractKeyTerms(longNotice, longSentences),
      noticePeriod: { value: '30 days', start: elsewhere, end: elsewhere + 10 },
    }
    expect(
      assessRisks(longNotice, longSentences, [], misreadShort).map((r) => r.code),
    ).not.toContain('auto-renewal-short-notice')
  })

  it('reports liability-missing and governing-law-missing as absent, without a citation', () => {
    const content =
      'CONSULTING AGREEMENT\n\nConsultant will advise Client on regulatory strategy as requested.'
    const risks = analyzeLocal(content, 'risks').risks
    expect(risks.map((r) => r.code).sort()).toEqual([
      'governing-law-missing',
      'ip-assignment-missing',
      'liability-missing',
    ])
    for (const risk of risks) {
      expect(risk).toMatchObject({ absent: true, start: 0, end: 0 })
      expect(risk.explanation).toMatch(/absent/)
    }
  })

  it.each([
    ['a heading', 'NON-COMPETITION\n\n5. '],
    ['a definition', '"Competing Business" means any business that competes with Client.\n\n5. '],
    [
      'a survival list',
      'Sections 4 (Non-Competition), 6 (Confidentiality) and 7 (Fees) shall survive termination.\n\n5. ',
    ],
  ])('cites the operative sentence, not %s, as the evidence of a non-compete', (_, before) => {
    const operative =
      'During the term Consultant shall not provide services to any business that competes with Client.'
    const content = contractWith(`${before}${operative}`)
    const risk = analyzeLocal(content, 'risks').risks.find((r) => r.code === 'non-compete')
    expect(risk && content.slice(risk.start, risk.end)).toContain(operative)
    expect(risk && content.slice(risk.start, risk.end)).not.toMatch(
      /means|survive|^NON-COMPETITION/,
    )
  })

  it('raises no non-compete for a clause that leaves a party free to build competing products', () => {
    const content = contractWith(
      'Independent Development. Client shall not be precluded from developing products that compete with the services of Consultant.',
    )
    expect(riskCodes(content)).not.toContain('non-compete')
  })

  it('flags a governing-law clause that names no jurisdiction as unclear, not missing', () => {
    const content = contractWith(
      'Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the state in which a suit is properly filed.',
    ).replace(
      '3. Law. This Agreement is governed by the laws of the State of Illinois.',
      '3. Fees. Fees are due monthly.',
    )
    const risks = analyzeLocal(content, 'risks').risks
    const codes = risks.map((r) => r.code)
    expect(codes).not.toContain('governing-law-missing')
    const unclear = risks.find((r) => r.code === 'governing-law-unclear')
    expect(unclear && content.slice(unclear.start, unclear.end)).toMatch(/governed by/)
  })

  it('finds every expected risk in a risky agreement and none in a balanced one', () => {
    expect(riskCodes(RISKY_SERVICES_AGREEMENT).sort()).toEqual([
      'auto-renewal-short-notice',
      'change-of-control',
      'exclusivity',
      'indemnity-broad',
      'indemnity-one-sided',
      'ip-assignment-missing',
      'liability-uncapped',
      'non-compete',
      'termination-for-convenience-unilateral',
    ])
    expect(riskCodes(BALANCED_SUPPLY_AGREEMENT)).toEqual([])
  })

  it('rates an indemnity that covers the other side’s own negligence as high', () => {
    const risk = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'risks').risks.find(
      (r) => r.code === 'indemnity-broad',
    )
    expect(risk?.severity).toBe('high')
  })

  it('says whom a risk binds and, given our party, orients it', () => {
    const neutral = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'risks').risks
    const nonCompete = neutral.find((r) => r.code === 'non-compete')
    expect(nonCompete?.binds).toEqual(['Contoso Retail LLC'])
    expect(nonCompete?.orientation).toBeUndefined()
    const termination = neutral.find((r) => r.code === 'termination-for-convenience-unilateral')
    expect(termination?.binds).toEqual(['Contoso Retail LLC'])
    expect(termination?.explanation).toMatch(/Only Northwind Analytics, Inc\. may end/)

    const asCustomer = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'risks', { ourParty: 'Customer' })
    const asProvider = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'risks', {
      ourParty: 'Northwind Analytics, Inc.',
    })
    const find = (risks: typeof neutral) => risks.find((r) => r.code === 'non-compete')
    expect(find(asCustomer.risks)).toMatchObject({ orientation: 'binds-us', severity: 'high' })
    expect(find(asProvider.risks)).toMatchObject({ orientation: 'binds-them', severity: 'low' })
  })

  it('does not rate a missing limitation of liability as high in an employment agreement', () => {
    const content =
      'EMPLOYMENT AGREEMENT\n\nThis Employment Agreement is made between Quarry Foods Inc. ("Company") and Dana Reyes ("Executive").\n\nThe Executive shall serve as chief financial officer.'
    const risk = analyzeLocal(content, 'risks').risks.find((r) => r.code === 'liability-missing')
    expect(risk?.severity).toBe('low')
  })
})

describe('risk evidence is an operative sentence (issue 48, document structure)', () => {
  /** A supply agreement whose preamble and definitions name an unlimited liability company. */
  const SUPPLY = [
    'SUPPLY AGREEMENT',
    'This Supply Agreement is made as of March 1, 2020 by and between Acme ULC, a Nova Scotia unlimited liability company ("Supplier"), and Birch Inc. ("Buyer").',
    '1. Supply. Supplier shall supply the Products to Buyer at the prices in Exhibit A.',
    "2. Liability. Each party's total liability under this Agreement shall not exceed the fees paid under it.",
    '3. Law. This Agreement is governed by the laws of the State of Illinois.',
    '4. Definitions. For purposes of this Agreement: (a) the terms "person" or "persons" shall mean any individual, corporation, limited liability or unlimited liability company or other entity.',
  ].join('\n\n')

  it('does not read "unlimited liability company" in the preamble or a definition as unlimited liability', () => {
    const risks = analyzeLocal(SUPPLY, 'risks').risks
    expect(risks.map((r) => r.code)).not.toContain('liability-uncapped')
    for (const risk of risks.filter((r) => !r.absent)) {
      expect(SUPPLY.slice(risk.start, risk.end)).not.toMatch(/^This Supply Agreement|Definitions/)
    }
  })

  it('still reads unlimited liability stated in an operative clause', () => {
    const content = SUPPLY.replace(
      "Each party's total liability under this Agreement shall not exceed the fees paid under it.",
      "Supplier's liability for breach of this Agreement shall be unlimited.",
    )
    expect(riskCodes(content)).toContain('liability-uncapped')
  })
})

describe('risks are built from what a clause does (issue 48, clause reading)', () => {
  const CONSULTANT = 'Alder Advisory LLP'
  const CLIENT = 'Birch Biotech Inc.'

  /** The risks of `content` when the classifier found `clauseText` as a confident `category`. */
  function risksWithClause(content: string, clauseText: string, category: string) {
    const sentences = segmentSentences(content)
    const start = content.indexOf(clauseText)
    const clause = {
      category,
      confidence: 0.95,
      start,
      end: start + clauseText.length,
      text: clauseText,
    }
    return assessRisks(content, sentences, [clause], extractKeyTerms(content, sentences))
  }

  function riskOf(content: string, code: string) {
    const risk = analyzeLocal(content, 'risks').risks.find((r) => r.code === code)
    if (!risk) throw new Error(`no ${code} risk`)
    return risk
  }

  it('does not read "without any early termination penalty" as an exit fee', () => {
    const codes = riskCodes(
      contractWith(
        'Termination. Either party may end this Agreement on thirty (30) days notice without any early termination penalty.',
      ),
    )
    expect(codes).not.toContain('severance-exit-fee')
    expect(
      riskCodes(contractWith('Termination. Client shall pay an early termination fee of $5,000.')),
    ).toContain('severance-exit-fee')
  })

  it('does not read "an unlimited liability company" in an operative clause as unlimited liability', () => {
    const content = contractWith(
      'Guarantee. Alder Holdings ULC, an unlimited liability company, shall guarantee the obligations of Consultant.',
    )
    expect(riskCodes(content)).not.toContain('liability-uncapped')
  })

  it('does not read a freedom to compete as a non-compete, even when the classifier does', () => {
    const freedom = 'Competition. Consultant remains free to compete with Client after the term.'
    expect(
      risksWithClause(contractWith(freedom), freedom, 'Non-Compete').map((r) => r.code),
    ).not.toContain('non-compete')
  })

  it('gives no non-compete risk for an amendment that deletes the non-compete', () => {
    const content = contractWith(
      'Amendment. Section 7 (Non-Competition) of the Prior Agreement is hereby deleted in its entirety.',
    )
    expect(riskCodes(content)).not.toContain('non-compete')
  })

  it('does not read a non-exclusive licence as exclusivity', () => {
    const grant =
      'Licence. Consultant grants Client a non exclusive licence to use the Deliverables.'
    expect(riskCodes(contractWith(grant))).not.toContain('exclusivity')
    const hyphened = grant.replace('non exclusive', 'non-exclusive')
    expect(
      risksWithClause(contractWith(hyphened), hyphened, 'Exclusivity').map((r) => r.code),
    ).not.toContain('exclusivity')
  })

  it('puts a one-sided obligation on the obliged party, not on one named in a leading phrase', () => {
    const content = contractWith(
      'Supplies. At the request of Client, Consultant shall purchase its supplies exclusively from Client.',
    )
    expect(riskOf(content, 'exclusivity').binds).toEqual([CONSULTANT])
  })

  it('puts a mutual covenant on both parties', () => {
    const content = contractWith(
      'Competition. Client and Consultant shall not compete with each other in the Territory during the term.',
    )
    expect(riskOf(content, 'non-compete').binds).toEqual([CLIENT, CONSULTANT])
  })

  it('puts an employee’s covenant on the employee, not on the employer', () => {
    const content = [
      'EMPLOYMENT AGREEMENT',
      'This Employment Agreement is made on April 2, 2022 between Birch Biotech Inc. (the "Company") and Jane Doe (the "Executive").',
      '1. Duties. The Executive shall serve as Chief Scientific Officer of the Company.',
      '2. Restrictive covenant. The Company and the Executive agree that, during the Restricted Period, the Executive shall not engage in any business that competes with the Company.',
      '3. Law. This Agreement is governed by the laws of the State of Illinois.',
    ].join('\n\n')
    expect(riskOf(content, 'non-compete').binds).toEqual(['Jane Doe'])
  })

  it('puts an IP assignment on the assigning party, not on the one receiving the IP', () => {
    const content = contractWith(
      'Ownership. Client shall be the sole owner of all work product created by Consultant under this Agreement.',
    )
    expect(riskOf(content, 'ip-assignment').binds).toEqual([CONSULTANT])
    const assigns = contractWith(
      'Ownership. Consultant hereby assigns to Client all right, title and interest in the Deliverables.',
    )
    expect(riskOf(assigns, 'ip-assignment').binds).toEqual([CONSULTANT])
  })
})
