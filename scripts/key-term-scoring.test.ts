import { describe, expect, it } from 'vitest'
import {
  keyTermScores,
  normalisePartyName,
  parseLabelDate,
  parsePartiesLabel,
  parsePeriod,
  partyNamesMatch,
  periodsMatch,
  scoreKeyTerms,
} from './key-term-scoring'
import { emptyKeyTerms } from '../server/ai/analyzer/empty-result'

describe('normalisePartyName', () => {
  it.each([
    ['Acme Holdings, Inc.', 'acme holdings'],
    ['Bank of Example, N.A.', 'bank of example'],
    ['“Nordlicht GmbH”', 'nordlicht'],
    ['Widget   Co.', 'widget'],
    ['Inc.', 'inc'],
  ])('normalises %s to %s', (name, expected) => {
    expect(normalisePartyName(name)).toBe(expected)
  })
})

describe('parsePartiesLabel', () => {
  it('drops defined terms and skips entries that only combine other parties or roles', () => {
    const cell =
      'Quillon Labs, Inc. ("Quillon"); Brightwater Ltd. (“Distributor”); Quillon and Distributor ("Parties"); Parties'
    expect(parsePartiesLabel(cell)).toEqual(['quillon labs', 'brightwater'])
  })

  it('skips remarks, even when a semicolon inside their brackets splits them', () => {
    const cell =
      'Orbia Inc. ("Orbia"); Tessel LLC ("Tessel"); Orbia and Tessel (individually, a “Party”; collectively, the “Parties”); Each of the foregoing is referred to herein as a “Party”; and Tessel'
    expect(parsePartiesLabel(cell)).toEqual(['orbia', 'tessel'])
  })

  it("skips a list of the other entries' lettered terms", () => {
    const cell = 'Kestrel Ltd. ("Party A"); Lumen Co. ("Party B"); Party A, Party B'
    expect(parsePartiesLabel(cell)).toEqual(['kestrel', 'lumen'])
  })

  it('keeps a party whose name equals its own defined term', () => {
    expect(parsePartiesLabel('Orbia Inc. ("Orbia"); Tessel LLC ("Tessel")')).toEqual([
      'orbia',
      'tessel',
    ])
  })
})

describe('partyNamesMatch', () => {
  it('matches equal names and whole-word containment in either direction', () => {
    expect(partyNamesMatch('acme', 'acme holdings')).toBe(true)
    expect(partyNamesMatch('acme holdings', 'acme')).toBe(true)
    expect(partyNamesMatch('acme', 'acmecorp')).toBe(false)
    expect(partyNamesMatch('', 'acme')).toBe(false)
  })
})

describe('parseLabelDate', () => {
  it.each([
    ['5/8/14', '2014-05-08'],
    ['12/31/1998', '1998-12-31'],
    ['1/1/36', '2036-01-01'],
    ['Perpetual', 'perpetual'],
    ['[]/[]/2020', null],
    ['7/22/2019; 7/22/2022', null],
    ['2/30/20', null],
    ['', null],
  ])('reads %s as %s', (cell, expected) => {
    expect(parseLabelDate(cell)).toBe(expected)
  })
})

describe('parsePeriod', () => {
  it.each([
    ['successive 1 year', 'months', 12],
    ['three (3) years', 'months', 36],
    ['4 years, 6 months', 'months', 54],
    ['(6) months', 'days', 180],
    ['180 days / 6 months', 'days', 180],
    ['6 weeks', 'days', 42],
  ] as const)('reads %s in %s as %d', (cell, unit, expected) => {
    expect(parsePeriod(cell, unit)).toBe(expected)
  })

  it('gives null for several periods or none', () => {
    expect(parsePeriod('5 years; 2 years', 'months')).toBeNull()
    expect(parsePeriod('perpetual', 'months')).toBeNull()
  })

  it('treats 3 months and 90 days as the same notice', () => {
    expect(periodsMatch(parsePeriod('3 months', 'days') ?? 0, parsePeriod('90 days', 'days'))).toBe(
      true,
    )
    expect(periodsMatch(90, parsePeriod('60 days', 'days'))).toBe(false)
  })
})

describe('scoreKeyTerms', () => {
  it('counts party recall and precision, dates and periods, skipping unusable labels', () => {
    const scores = keyTermScores()
    const answers = new Map([
      ['Parties', 'Quillon Labs, Inc. ("Quillon"); Brightwater Ltd. ("Brightwater")'],
      ['Agreement Date', '3/4/21'],
      ['Effective Date', '[]/[]/2021'],
      ['Expiration Date', 'perpetual'],
      ['Renewal Term', 'successive 1 year'],
      ['Notice Period To Terminate Renewal', '3 months'],
    ])
    scoreKeyTerms(scores, 'a.txt', answers, {
      ...emptyKeyTerms(),
      parties: [
        { name: 'Quillon Labs Inc', start: 0, end: 1 },
        { name: 'Schedule A', start: 2, end: 3 },
      ],
      agreementDate: { value: '2021-03-04', start: 0, end: 1 },
      expirationDate: { value: '2024-03-04', start: 0, end: 1 },
      renewalTerm: { value: '12 months', start: 0, end: 1 },
      noticePeriod: { value: '90 days', start: 0, end: 1 },
    })
    expect(scores.parties_recall).toMatchObject({ hits: 1, total: 2 })
    expect(scores.parties_precision).toMatchObject({ hits: 1, total: 2 })
    expect(scores.agreement_date_accuracy).toMatchObject({ hits: 1, total: 1 })
    expect(scores.effective_date_accuracy.total).toBe(0)
    expect(scores.expiration_date_accuracy).toMatchObject({ hits: 0, total: 1 })
    expect(scores.expiration_date_accuracy.misses[0]).toEqual({
      file: 'a.txt',
      expected: 'perpetual',
      got: '2024-03-04',
    })
    expect(scores.renewal_term_accuracy).toMatchObject({ hits: 1, total: 1 })
    expect(scores.notice_period_accuracy).toMatchObject({ hits: 1, total: 1 })
  })
})
