import { describe, expect, it } from 'vitest'
import { segmentSentences } from '../sentences'
import { blockKind } from './block-kind'
import { definedTerm } from './defined-term'
import { documentStructure } from './document-structure'
import { evidenceSentences } from './evidence-sentences'

describe('blockKind', () => {
  it.each([
    ['ARTICLE 9 - NON-COMPETITION', 'heading'],
    ['13.1 Force Majeure', 'section-heading'],
    ['"Territory" means the United States of America.', 'definition'],
    [
      '(c) the terms "person" or "persons" shall mean any individual, corporation, limited liability or unlimited liability company or other entity.',
      'definition',
    ],
    [
      'As used in this Agreement, "Products" refers to the goods listed in Exhibit A.',
      'definition',
    ],
    ['WHEREAS, the Company wishes to engage the Consultant;', 'recital'],
    ['NOW, THEREFORE, the parties agree as follows:', 'recital'],
    [
      'This Supply Agreement is made as of March 1, 2020 by and between Acme ULC, a Nova Scotia unlimited liability company ("Supplier"), and Birch Inc. ("Buyer").',
      'preamble',
    ],
    [
      'IN WITNESS WHEREOF, the parties have executed this Agreement as of the date first written above.',
      'signature',
    ],
    ['By: ______________ Name: John Smith Title: CEO', 'signature'],
    ['EXHIBIT A', 'exhibit-title'],
    ['Exhibit B - Pricing', 'exhibit-title'],
    ['Source: ACME INC, 10-K, 3/1/2019', 'page-furniture'],
    ['- 12 -', 'page-furniture'],
    ['Page 4 of 9', 'page-furniture'],
    [
      'Supplier shall not exceed the agreed prices without the prior written consent of Buyer.',
      'operative',
    ],
    [
      'IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INDIRECT OR CONSEQUENTIAL DAMAGES ARISING UNDER THIS AGREEMENT.',
      'operative',
    ],
    [
      'This Agreement shall become effective on the date it is signed by both parties.',
      'operative',
    ],
  ])('types %j as %s', (text, kind) => {
    expect(blockKind(text)).toBe(kind)
  })
})

describe('blockKind of a Title Case caption (caption-typed-operative failure)', () => {
  // A caption whose nouns read as verbs ("Covenant", "Grant", "Indemnification") was typed
  // operative, so a risk, clause or deal line could cite it instead of the sentence after it.
  it.each([
    ['20. Covenant Not to Compete.', 'section-heading'],
    ['Section 9. Indemnification.', 'section-heading'],
    ['2. Grant of License.', 'section-heading'],
    ['7.2 Mutual Covenants as to Advertisements.', 'section-heading'],
    ['5. Indemnification. 5.1 Indemnification.', 'section-heading'],
    ['8. Indemnification by Licensee and Product Liability Insurance.', 'section-heading'],
    ['(b) Grant of License to the Distributor.', 'heading'],
    ['Indemnification by the Supplier.', 'heading'],
  ])('types %j as %s, not operative', (text, kind) => {
    expect(blockKind(text)).toBe(kind)
  })

  it.each([
    'Licensee Shall Indemnify Licensor.',
    'Consultant represents as follows:',
    'The license hereby granted extends worldwide.',
    'Exclusivity of Warranties THE WARRANTIES IN SECTION 6.1 ARE THE EXCLUSIVE WARRANTIES FROM ACME.',
    '7. DISCLAIMER OF WARRANTIES. EACH PARTY PROVIDES ALL MATERIALS AND SERVICES TO THE OTHER PARTY "AS IS."',
  ])('keeps %j operative (a verb phrase or a clause body)', (text) => {
    expect(blockKind(text)).toBe('operative')
  })
})

describe('definedTerm', () => {
  it('names the term a definition defines, quoted or bare', () => {
    expect(definedTerm('1.4 "Territory" shall mean Canada.')).toBe('Territory')
    expect(definedTerm('Affiliate means any entity controlling a party.')).toBe('Affiliate')
    expect(definedTerm('The Territory shall be Canada.')).toBeNull()
  })
})

describe('documentStructure', () => {
  it('types a running footer repeated on three pages as page furniture', () => {
    const page = (n: number) =>
      `Clause ${n}. The Distributor shall keep records of sales number ${n}.\n\nConfidential - Acme Distribution Terms\n\n${n}`
    const typed = documentStructure(segmentSentences([1, 2, 3].map(page).join('\n\n')))
    const footers = typed.filter((s) => s.text === 'Confidential - Acme Distribution Terms')
    expect(footers).toHaveLength(3)
    expect(footers.every((s) => s.kind === 'page-furniture')).toBe(true)
    expect(typed.filter((s) => s.kind === 'operative')).toHaveLength(3)
  })

  it('types the lettered paragraphs under RECITALS as recitals, up to the words of agreement', () => {
    const text = [
      'RECITALS',
      'A. The Company is engaged in the business of making widgets.',
      'B. The Consultant has expertise in widget design.',
      'NOW, THEREFORE, the parties agree as follows:',
      '1. Services. The Consultant shall design widgets for the Company.',
    ].join('\n\n')
    const kinds = documentStructure(segmentSentences(text)).map((s) => s.kind)
    expect(kinds).toEqual(['recital', 'recital', 'recital', 'recital', 'operative'])
  })

  it('gives a definition the term it defines', () => {
    const [typed] = documentStructure(
      segmentSentences('"Affiliate" means any entity under common control.'),
    )
    expect(typed).toMatchObject({ kind: 'definition', defines: 'Affiliate' })
  })
})

describe('evidenceSentences', () => {
  it('keeps only operative sentences, never the preamble, a definition or a footer', () => {
    const text = [
      'This Agreement is entered into as of May 1, 2021 between Acme ULC, an Alberta unlimited liability company, and Birch Inc.',
      '"Products" means the goods in Exhibit A.',
      'Acme shall supply the Products to Birch.',
      'Source: BIRCH INC, 10-Q, 5/1/2021',
    ].join('\n\n')
    expect(evidenceSentences(segmentSentences(text)).map((s) => s.text)).toEqual([
      'Acme shall supply the Products to Birch.',
    ])
  })
})

describe('evidence after a caption (caption-typed-operative failure)', () => {
  it('drops the caption "20. Covenant Not to Compete." and keeps the covenant after it', () => {
    const text = [
      '20. Covenant Not to Compete.',
      'During the Term, the Distributor shall not sell any product that competes with the Products.',
    ].join('\n\n')
    expect(evidenceSentences(segmentSentences(text)).map((s) => s.text)).toEqual([
      'During the Term, the Distributor shall not sell any product that competes with the Products.',
    ])
  })
})

describe('definedTerm after a caption and a lead-in', () => {
  it('reads "8. Definitions. For purposes of this Agreement: (a) the terms …"', () => {
    expect(
      definedTerm(
        '8. Definitions. For purposes of this Agreement: (a) the terms "person" or "persons" shall mean any individual or unlimited liability company.',
      ),
    ).toBe('person')
  })
})
