import { describe, expect, it } from 'vitest'
import { DEAL_SHEET_KEYS, type DealSheet, type DealSheetKey } from '../../types'
import { analyzeLocal } from '../analyze-local'
import { dealSheetText } from './build-deal-sheet'

/** A supply agreement written for these tests: every deal-sheet line has its passage. */
const SUPPLY = [
  'SUPPLY AGREEMENT',
  'This Supply Agreement is made on March 3, 2021 between Harbour Foods Ltd ("Supplier") and Greenway Stores Inc. ("Buyer").',
  '1. Supply. Supplier agrees to supply the Products to Buyer in the Territory on the terms of this Agreement.',
  '2. Term. The term of this Agreement shall be three (3) years from the Effective Date. This Agreement shall automatically renew for successive one (1) year periods unless either party gives ninety (90) days written notice of non-renewal.',
  '3. Price. Buyer shall pay Supplier a price of $4.50 per case for the Products. Buyer shall pay each invoice within thirty (30) days of receipt of the invoice.',
  '4. Termination. Either party may terminate this Agreement upon sixty (60) days prior written notice if the other party commits a material breach and fails to cure it.',
  '5. Liability. In no event shall either party be liable for any indirect, incidental or consequential damages. The total liability of Supplier under this Agreement shall not exceed $250,000. Supplier shall indemnify, defend and hold harmless Buyer against all claims arising from defective Products. Supplier shall maintain product liability insurance of at least $2,000,000.',
  '6. Exclusivity. Buyer shall purchase the Products exclusively from Supplier during the term.',
  '7. Intellectual property. Supplier shall retain all right, title and interest in its trademarks and know-how.',
  '8. Confidentiality. Each party shall keep confidential all information received from the other party for a period of five (5) years.',
  '9. Governing law. This Agreement shall be governed by the laws of the State of New York, and the parties submit to the exclusive jurisdiction of the courts of New York County.',
  '10. Assignment. Supplier shall not, without the prior written consent of Buyer, assign this Agreement or any of its rights under it. Supplier shall notify Buyer in writing of any change of control of Supplier.',
].join('\n\n')

function sheetOf(content: string): DealSheet {
  const sheet = analyzeLocal(content, 'summarize').summary.dealSheet
  if (!sheet) throw new Error('no deal sheet')
  return sheet
}

function line(sheet: DealSheet, key: DealSheetKey) {
  const found = sheet.lines.find((l) => l.key === key)
  if (!found) throw new Error(`no line ${key}`)
  return found
}

describe('buildDealSheet', () => {
  it('has every fixed line in order, each cited by exact quotes or Not found', () => {
    const sheet = sheetOf(SUPPLY)
    expect(sheet.lines.map((l) => l.key)).toEqual([...DEAL_SHEET_KEYS])
    for (const l of sheet.lines) {
      expect(l.value, l.key).not.toBeNull()
      expect(l.citations.length, l.key).toBeGreaterThan(0)
      for (const c of l.citations) expect(SUPPLY.slice(c.start, c.end)).toBe(c.text)
    }
  })

  it('says what the deal is in one sentence: type, parties and subject', () => {
    expect(line(sheetOf(SUPPLY), 'deal').value).toBe(
      'Supply Agreement between Harbour Foods Ltd and Greenway Stores Inc.: Supplier agrees to supply the Products to Buyer in the Territory on the terms of this Agreement.',
    )
  })

  it('names the deal from the preamble when no title line heads the contract', () => {
    const content =
      'This Distribution Agreement is made on May 1, 2022 between Gamma Tools GmbH ("Supplier") and Helix Trading Ltd ("Distributor"). Supplier hereby appoints Distributor as its distributor of the Products in France.'
    expect(line(sheetOf(content), 'deal').value).toMatch(
      /^Distribution Agreement between Gamma Tools GmbH and Helix Trading Ltd: /,
    )
  })

  it('reads the term with its renewal and notice, and the money with its timing', () => {
    const sheet = sheetOf(SUPPLY)
    expect(line(sheet, 'term').value).toBe(
      "initial term 3 years; ends 2024-03-03; renews for 1 year; 90 days' notice to stop renewal",
    )
    expect(line(sheet, 'money').value).toBe(
      'Buyer → Supplier: $4.50 per case, within 30 days of invoice',
    )
  })

  it('names who may terminate, for what and on what notice', () => {
    expect(line(sheetOf(SUPPLY), 'termination').value).toBe(
      "Either party: material breach (60 days' notice)",
    )
  })

  it('states the cap, exclusions, indemnity and insurance', () => {
    expect(line(sheetOf(SUPPLY), 'liability').value).toBe(
      'cap $250,000 protecting Supplier; indirect and consequential damages excluded; indemnity by Supplier; insurance required',
    )
  })

  it('reads exclusivity, IP, confidentiality and law with venue', () => {
    const sheet = sheetOf(SUPPLY)
    expect(line(sheet, 'restrictions').value).toBe('exclusivity')
    expect(line(sheet, 'ip').value).toBe('IP ownership stated')
    expect(line(sheet, 'confidentiality').value).toBe('mutual duty not to disclose; lasts 5 years')
    expect(line(sheet, 'law').value).toBe('New York law; courts of New York County')
  })

  it('says Not found, without citations, for what a contract leaves out', () => {
    const content = [
      'CONSULTING AGREEMENT',
      'This Consulting Agreement is made on May 1, 2022 between Alder Advisory LLC ("Consultant") and Birch Holdings Inc. ("Company").',
      'Consultant shall provide advice on the Company’s marketing plans as the Company requests from time to time.',
    ].join('\n\n')
    const sheet = sheetOf(content)
    for (const key of ['money', 'liability', 'restrictions', 'law'] as const) {
      expect(line(sheet, key).value).toBeNull()
      expect(line(sheet, key).citations).toEqual([])
    }
    expect(dealSheetText(sheet)).toContain('Money: Not found')
  })

  it('never reads a freedom to compete or a non-exclusive licence as a restriction', () => {
    const content = [
      'LICENSE AGREEMENT',
      'This License Agreement is made on May 1, 2022 between Cedar Software Inc. ("Licensor") and Delta Retail LLC ("Licensee").',
      'Licensor hereby grants to Licensee a non-exclusive, non-transferable license to use the Software in its stores.',
      'Nothing in this Agreement shall prevent the Licensee from developing products that compete with the Software.',
    ].join('\n\n')
    const sheet = sheetOf(content)
    expect(line(sheet, 'restrictions').value).toBeNull()
    expect(line(sheet, 'ip').value).toBe('non-exclusive licence granted (non-transferable)')
  })

  it('does not take what follows termination for a right to terminate', () => {
    const content = [
      'SERVICES AGREEMENT',
      'This Services Agreement is made on May 1, 2022 between Elm Systems Inc. ("Provider") and Fir Logistics LLC ("Customer").',
      'Upon termination of this Agreement, the Customer may terminate all licences granted hereunder and return the materials.',
    ].join('\n\n')
    expect(line(sheetOf(content), 'termination').value).toBeNull()
  })

  it('lists 3 to 5 points for a lawyer, a missing cap among them', () => {
    const content = [
      'DISTRIBUTION AGREEMENT',
      'This Distribution Agreement is made on May 1, 2022 between Gamma Tools GmbH ("Supplier") and Helix Trading Ltd ("Distributor").',
      'Supplier hereby appoints Distributor as its exclusive distributor of the Products in France.',
      'This Agreement shall automatically renew for successive one (1) year periods unless either party gives thirty (30) days notice of non-renewal.',
    ].join('\n\n')
    const { attention } = sheetOf(content)
    expect(attention.length).toBeGreaterThanOrEqual(3)
    expect(attention.length).toBeLessThanOrEqual(5)
    expect(attention[0]?.text).toMatch(/renews for 1 year/)
    expect(
      attention.some((p) => /No cap on liability/.test(p.text) && p.citations.length === 0),
    ).toBe(true)
  })
})

describe('dealSheetText', () => {
  it('writes one labelled line per point, then the attention list', () => {
    const text = dealSheetText(sheetOf(SUPPLY))
    expect(text.split('\n')[0]).toMatch(/^Deal: Supply Agreement between /)
    expect(text).toContain('Governing law and venue: New York law')
    expect(text).toContain('Points for a lawyer’s attention:')
  })
})

describe('deal-sheet evidence (issue 48, document structure)', () => {
  it('never cites a recital or a definition as a line’s evidence', () => {
    const content = [
      'SERVICES AGREEMENT',
      'This Services Agreement is made on May 1, 2022 between Alder Advisory LLP ("Consultant") and Birch Biotech Inc. ("Client").',
      'WHEREAS, the parties wish to record that the total liability of Consultant shall not exceed the fees paid;',
      '1. Definitions. For purposes of this Agreement: (a) the term "Restricted Business" shall mean any business that competes with Client, and Consultant shall purchase exclusively from Client.',
      '2. Services. Consultant will advise Client on regulatory strategy as requested from time to time.',
    ].join('\n\n')
    const sheet = sheetOf(content)
    for (const l of sheet.lines) {
      for (const c of l.citations) expect(c.text, l.key).not.toMatch(/^WHEREAS|Definitions\./)
    }
    expect(line(sheet, 'liability').value).toBeNull()
  })
})

describe('liability line (issue 48)', () => {
  it('says "no cap found" when the contract excludes damages but caps nothing', () => {
    const content = SUPPLY.replace(
      ' The total liability of Supplier under this Agreement shall not exceed $250,000.',
      '',
    )
    const liability = line(sheetOf(content), 'liability')
    expect(liability.value).toMatch(/^no cap found; indirect and consequential damages excluded/)
    expect(liability.value).not.toMatch(/cap stated/)
  })
})

describe('assignment line (issue 48)', () => {
  it('says who may assign, with whose consent, and what a change of control sets off', () => {
    const assignment = line(sheetOf(SUPPLY), 'assignment')
    expect(assignment.value).toBe(
      'Supplier: not without consent of Buyer; change of control: notice',
    )
    expect(assignment.citations.map((c) => c.text)).toEqual([
      '10. Assignment. Supplier shall not, without the prior written consent of Buyer, assign this Agreement or any of its rights under it.',
      'Supplier shall notify Buyer in writing of any change of control of Supplier.',
    ])
  })

  it('reads a mutual restriction and a free assignment', () => {
    const content = SUPPLY.replace(
      'Supplier shall not, without the prior written consent of Buyer, assign this Agreement or any of its rights under it. Supplier shall notify Buyer in writing of any change of control of Supplier.',
      'Neither party may assign this Agreement without the prior written consent of the other party. Buyer may freely assign its rights under this Agreement to an affiliate.',
    )
    expect(line(sheetOf(content), 'assignment').value).toBe(
      'either party: not without consent of the other party; Buyer: may assign to an affiliate without consent',
    )
  })
})

/** The SUPPLY agreement with its section `n` replaced by `text`. */
function withSection(n: number, text: string): string {
  return SUPPLY.replace(new RegExp(`\\n\\n${n}\\. [^\\n]*`), `\n\n${n}. ${text}`)
}

describe('money line read from payments (issue 48)', () => {
  it('says who pays whom, how much and when', () => {
    const money = line(
      sheetOf(
        withSection(
          3,
          'Price. Buyer shall pay to Supplier a fee of $12,000 per month, payable monthly in advance.',
        ),
      ),
      'money',
    )
    expect(money.value).toBe('Buyer → Supplier: $12,000 per month, monthly in advance')
    expect(money.citations[0]?.text).toMatch(/^3\. Price\. Buyer shall pay/)
  })

  it('never takes a figure from an insurance clause for money', () => {
    const content = withSection(
      3,
      'Insurance. Supplier shall, at its own cost, maintain general liability insurance with coverage of not less than $5,000,000 per occurrence and shall pay all premiums for it.',
    )
    expect(line(sheetOf(content), 'money').value).toBeNull()
  })

  it('never takes a share price for money', () => {
    const content = withSection(
      3,
      'Equity. The Company shall issue to Supplier 10,000 shares of Common Stock at an exercise price of $2.00 per share, and Supplier shall pay the exercise price on issue.',
    )
    expect(line(sheetOf(content), 'money').value ?? '').not.toMatch(/\$2\.00/)
  })

  it('never takes a liability cap for money', () => {
    const content = withSection(
      3,
      'Limit. The fees paid under this Agreement shall be the limit of any claim, and in any case the liability of Supplier shall not exceed $100,000.',
    )
    expect(line(sheetOf(content), 'money').value).toBeNull()
  })
})

describe('liability line: whom the cap protects (issue 48)', () => {
  it('names every party when the cap is mutual', () => {
    const content = SUPPLY.replace(
      'The total liability of Supplier under this Agreement shall not exceed $250,000.',
      "Neither party's aggregate liability under this Agreement shall exceed the fees paid by Buyer in the twelve months before the claim.",
    )
    expect(line(sheetOf(content), 'liability').value).toMatch(
      /^cap measured by fees paid protecting each party; /,
    )
  })
})

describe('assignment line, passive and possessive forms (issue 48)', () => {
  it('reads who may not assign from "by" and whose consent from a possessive', () => {
    const content = withSection(
      10,
      "Assignment. This Agreement may not be assigned by Supplier without Buyer's prior written consent, which consent shall not be unreasonably withheld.",
    )
    expect(line(sheetOf(content), 'assignment').value).toBe(
      'Supplier: not without consent of Buyer (not unreasonably withheld)',
    )
  })
})

describe('confidentiality found in NDAs (issue 48)', () => {
  const NDA = [
    'MUTUAL NON-DISCLOSURE AGREEMENT',
    'This Mutual Non-Disclosure Agreement is made on May 1, 2022 between Oak Labs Inc. ("Oak") and Pine Analytics LLC ("Pine").',
    '1. Each party may disclose Confidential Information to the other for the purpose of evaluating a possible joint venture.',
    '2. The Receiving Party shall: (a) use the Confidential Information solely for the purpose of evaluating the joint venture;',
    '(b) not disclose the Confidential Information to any third party without the prior written consent of the Disclosing Party.',
    '3. The obligations of the Receiving Party under this Agreement shall survive for a period of three (3) years from the date of disclosure.',
  ].join('\n\n')

  it('reads a listed "not disclose" duty and its survival period', () => {
    const confidentiality = line(sheetOf(NDA), 'confidentiality')
    expect(confidentiality.value).toBe(
      "Receiving Party's duty not to disclose; use only for the stated purpose; lasts 3 years",
    )
    expect(confidentiality.citations.map((c) => c.text)).toContain(
      '(b) not disclose the Confidential Information to any third party without the prior written consent of the Disclosing Party.',
    )
  })

  it('does not take a permission to disclose for a duty', () => {
    const content = NDA.split('\n\n').slice(0, 3).join('\n\n')
    expect(line(sheetOf(content), 'confidentiality').value).toBeNull()
  })

  it('describes an NDA by what it protects and why, not by an arbitrary sentence', () => {
    expect(line(sheetOf(NDA), 'deal').value).toBe(
      'Mutual Non-Disclosure Agreement between Oak Labs Inc. and Pine Analytics LLC: protects confidential information disclosed for the purpose of evaluating a possible joint venture.',
    )
  })
})

describe('deal line (issue 48)', () => {
  it('finds the title in a text that lost its line breaks', () => {
    const content = `STRATEGIC ALLIANCE AGREEMENT    ${SUPPLY.split('\n\n').slice(1).join(' ')}`
    expect(line(sheetOf(content), 'deal').value).toMatch(/^Strategic Alliance Agreement between /)
  })

  it('reads a present-tense appointment, which has no modal', () => {
    const content = [
      'DISTRIBUTION AGREEMENT',
      'This Distribution Agreement is made on March 2, 2021 by and between Quillon Instruments Inc. (the "Supplier") and Marrow Medical Supplies LLC (the "Distributor").',
      '1. Appointment. The Supplier appoints the Distributor as its distributor of the Products in Canada.',
    ].join('\n\n')
    expect(line(sheetOf(content), 'deal').value).toMatch(
      /: The Supplier appoints the Distributor as its distributor of the Products in Canada\.$/,
    )
  })

  it('never describes the deal by a prohibition or a retained copy', () => {
    const content = [
      'SERVICES AGREEMENT',
      'This Services Agreement is made on May 1, 2022 between Elm Systems Inc. ("Provider") and Fir Logistics LLC ("Customer").',
      'Neither Provider nor any of its employees, shall sell, release or transfer any Customer Data to any third party.',
      'The Customer may retain one copy of the reports for its records.',
      'Provider shall provide the hosting services described in Schedule A to the Customer.',
    ].join('\n\n')
    expect(line(sheetOf(content), 'deal').value).toBe(
      'Services Agreement between Elm Systems Inc. and Fir Logistics LLC: Provider shall provide the hosting services described in Schedule A to the Customer.',
    )
  })
})
