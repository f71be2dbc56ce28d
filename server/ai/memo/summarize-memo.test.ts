import { describe, expect, it } from 'vitest'
import { summarizeMemo } from './summarize-memo'
import { normalizeForCompare } from './condense'
import { segmentSentences } from '../analyzer/local/sentences'
import type { TranscriptSegment } from '../speech/types'

/** Timed segments, 10 s apart, from utterances. */
function memo(...utterances: string[]): TranscriptSegment[] {
  return utterances.map((text, i) => ({ start: i * 10, end: i * 10 + 9, text }))
}

const MEETING = memo(
  'This is Anna Kovacs, notes from the Henderson lease call this morning.',
  'Um, so basically the landlord wants to raise the rent by twelve percent from next year, which the client really cannot accept.',
  'We agreed that the client will not sign any renewal before the survey report is in.',
  'Tom Baker will send the revised draft to the landlord by Friday.',
  'I will call the surveyor tomorrow to confirm the inspection date.',
  'Marta said the break clause in the current lease is badly drafted and could be used against the landlord.',
  'She needs to check the notice periods by March 3.',
  'Overall I think the negotiation position of the client is actually quite strong because the market rents have fallen this year.',
)

describe('summarizeMemo', () => {
  it('finds the decision without its "we agreed" wording, citing its segment', () => {
    const summary = summarizeMemo(MEETING)
    expect(summary.decisions).toEqual([
      {
        text: 'Client will not sign any renewal before survey report is in',
        segment: 2,
        start: 20,
      },
    ])
  })

  it('finds action items with their owners (names, the speaker for "I", the last name for "she") and due dates', () => {
    const { actionItems } = summarizeMemo(MEETING)
    expect(
      actionItems.map(({ owner, task, due, segment, start }) => ({
        owner,
        task,
        due,
        segment,
        start,
      })),
    ).toEqual([
      {
        owner: 'Tom Baker',
        task: 'Send revised draft to landlord',
        due: 'Friday',
        segment: 3,
        start: 30,
      },
      {
        owner: 'Anna Kovacs',
        task: 'Call surveyor to confirm inspection date',
        due: 'tomorrow',
        segment: 4,
        start: 40,
      },
      { owner: 'Marta', task: 'Check notice periods', due: 'March 3', segment: 6, start: 60 },
    ])
    expect(actionItems[0]?.text).toBe('Tom Baker: send revised draft to landlord (due Friday)')
  })

  it('lists the names mentioned once each, at their first mention', () => {
    const { names } = summarizeMemo(MEETING)
    expect(names.map((n) => n.name)).toEqual(['Anna Kovacs', 'Henderson', 'Tom Baker', 'Marta'])
    expect(names.find((n) => n.name === 'Marta')).toMatchObject({ segment: 5, start: 50 })
  })

  it('gives condensed key points, each citing its segment', () => {
    const { keyPoints } = summarizeMemo(MEETING)
    expect(keyPoints.length).toBeGreaterThan(0)
    for (const point of keyPoints) {
      const source = MEETING[point.segment]
      expect(source?.start).toBe(point.start)
      expect(point.text.length).toBeLessThan(source?.text.length ?? 0)
    }
    expect(keyPoints.map((p) => p.text)).toContain(
      'Landlord wants to raise rent by twelve percent from next year, which client cannot accept',
    )
  })

  it('never gives a line equal to a transcript sentence', () => {
    const transcript = memo(
      'The court listed the hearing for the second week of June.',
      'We decided to file the defence early.',
      'Opposing counsel has not replied to our letter of the fourth.',
      'The expert report arrived and it supports our reading of the contract.',
      'Nothing else to add today.',
    )
    const summary = summarizeMemo(transcript)
    const sentences = new Set(
      transcript.flatMap((s) => segmentSentences(s.text).map((x) => normalizeForCompare(x.text))),
    )
    const lines = [...summary.keyPoints, ...summary.decisions, ...summary.actionItems].map(
      (p) => p.text,
    )
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(sentences.has(normalizeForCompare(line))).toBe(false)
    expect(summary.decisions.map((d) => d.text)).toEqual(['File defence early'])
  })

  it('takes an action from what a decision decides, not from "we agreed to" itself', () => {
    const summary = summarizeMemo(
      memo(
        'Sam Okafor joined the call.',
        'We agreed that Sam will file the defence by next Tuesday.',
        'We agreed to reject the offer.',
      ),
    )
    expect(summary.decisions.map((d) => d.text)).toEqual([
      'Sam will file defence by next Tuesday',
      'Reject offer',
    ])
    expect(summary.actionItems).toEqual([
      expect.objectContaining({
        owner: 'Sam',
        task: 'File defence',
        due: 'next Tuesday',
        segment: 1,
      }),
    ])
  })

  it('reads an unpunctuated lower-case transcript as the local speech engine writes it', () => {
    const { actionItems, decisions } = summarizeMemo(
      memo('okay so we decided to wait for the expert report', 'i will call the client tomorrow'),
    )
    expect(decisions.map((d) => d.text)).toEqual(['Wait for expert report'])
    expect(actionItems).toEqual([
      expect.objectContaining({
        owner: 'Speaker',
        task: 'Call client',
        due: 'tomorrow',
        segment: 1,
        start: 10,
      }),
    ])
  })

  it('finds no action item where nobody commits to anything', () => {
    const summary = summarizeMemo(
      memo(
        'The hearing was yesterday and it went well for the client.',
        'If we will need more time, the court would probably allow it.',
        'Will the other side appeal the ruling?',
        'It will be cold in the courtroom again.',
        'We will not settle on these terms.',
      ),
    )
    expect(summary.actionItems).toEqual([])
    expect(summary.decisions).toEqual([])
  })

  it('gives empty lists for an empty transcript', () => {
    expect(summarizeMemo(memo('', '  '))).toEqual({
      keyPoints: [],
      decisions: [],
      actionItems: [],
      names: [],
    })
  })
})
