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
  ])('rejects %s', (_, text) => {
    expect(isOperativePassage(text)).toBe(false)
  })

  it.each([
    'During the term Distributor shall not sell any product that competes with the Products.',
    "In no event shall either party's aggregate liability exceed the fees paid in the prior twelve months.",
    'Non-Compete. During the term Consultant shall not provide services to any competitor of Client.',
    'The Company means to grow the business and Supplier shall deliver weekly.',
    "IN NO EVENT SHALL EITHER PARTY'S AGGREGATE LIABILITY UNDER THIS AGREEMENT EXCEED THE FEES PAID IN THE TWELVE MONTHS BEFORE THE CLAIM.",
  ])('accepts the operative sentence %s', (text) => {
    expect(isOperativePassage(text)).toBe(true)
  })
})
