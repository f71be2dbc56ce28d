import { describe, expect, it } from 'vitest'
import { isOperativePassage } from './operative-passage'

describe('isOperativePassage', () => {
  it.each([
    ['a heading', 'ARTICLE 9 - NON-COMPETITION'],
    ['a short caption', 'Limitation of Liability'],
    ['a numbered caption', '12.3 Non-Compete.'],
    ['a title', 'EXCLUSIVE DISTRIBUTION AGREEMENT'],
    [
      'a definition',
      '"Competing Product" means any product that competes with the Licensed Product in the Territory.',
    ],
    [
      'a definition with shall mean',
      '1.4 “Liquidated Damages Amount” shall mean the sum stated in Schedule 2.',
    ],
    [
      'a survival list',
      'Sections 7 (Confidentiality), 9 (Non-Competition) and 11 (Limitation of Liability) shall survive any termination or expiration of this Agreement.',
    ],
    [
      'a table of contents',
      'ARTICLE 9 GENERAL 16 9.1 Entire Agreement 16 9.2 Assignment and Change of Control; Successors and Assigns 16 9.3 Notices 17',
    ],
    [
      'a numbered heading run into the next caption',
      '13.1 Force Majeure. 68 13.2 Change in Control of the Licensee.',
    ],
    ['a section caption', 'Section 6.3 Effect of Merger or Change of Control.'],
    [
      'an article heading run into its first caption',
      'ARTICLE VII RIGHT OF FIRST REFUSAL; CHANGE IN CONTROL Section 7.1 Right of First Offer on Resales.',
    ],
  ])('rejects %s', (_, text) => {
    expect(isOperativePassage(text)).toBe(false)
  })

  it.each([
    'During the term Distributor shall not sell any product that competes with the Products.',
    "In no event shall either party's aggregate liability exceed the fees paid in the prior twelve months.",
    'Non-Compete. During the term Consultant shall not provide services to any competitor of Client.',
    'The Company means to grow the business and Supplier shall deliver weekly.',
    "IN NO EVENT SHALL EITHER PARTY'S AGGREGATE LIABILITY UNDER THIS AGREEMENT EXCEED THE FEES PAID IN THE TWELVE MONTHS BEFORE THE CLAIM.",
    '14.2 Change of Control. Supplier may terminate this Agreement on notice if Customer undergoes a Change of Control.',
    '(l) Upon a Change of Control of the Reseller with one hundred eighty (180) days prior written notice to the Reseller.',
  ])('accepts the operative sentence %s', (text) => {
    expect(isOperativePassage(text)).toBe(true)
  })
})
