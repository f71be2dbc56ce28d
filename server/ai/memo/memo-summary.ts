/**
 * The structure of a voice memo's summary (decision 0056), shared by the local memo summariser,
 * the transcription job's result, the recordings API and the web client. Every item cites the
 * transcript segment it comes from: `segment` is its position (0-based) and `start` its start in
 * seconds from the start of the audio. No `text` is ever a copy of a transcript sentence.
 */
import { z } from 'zod'

export const MemoPoint = z.object({
  text: z.string(),
  segment: z.number().int().min(0).describe('Position of the cited transcript segment'),
  start: z.number().min(0).describe('Start of the cited segment, in seconds'),
})
export type MemoPoint = z.infer<typeof MemoPoint>

export const MemoAction = MemoPoint.extend({
  task: z.string().describe('What is to be done, condensed'),
  owner: z.string().nullable().describe('Who does it, when the memo says so'),
  due: z.string().nullable().describe('When, as said in the memo ("Friday", "March 3")'),
})
export type MemoAction = z.infer<typeof MemoAction>

export const MemoName = z.object({
  name: z.string(),
  segment: z.number().int().min(0).describe('Segment of the first mention'),
  start: z.number().min(0),
})
export type MemoName = z.infer<typeof MemoName>

export const MemoSummary = z
  .object({
    keyPoints: z.array(MemoPoint),
    decisions: z.array(MemoPoint),
    actionItems: z.array(MemoAction),
    names: z.array(MemoName),
  })
  .meta({ id: 'MemoSummary' })
export type MemoSummary = z.infer<typeof MemoSummary>
