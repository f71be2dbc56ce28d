/**
 * The WorkerPool task of a check's suggested redlines as a Word document (decision 0153): the
 * document's text compared with the text the redlines make (server/compare/ compareTexts, notes
 * off), then the comparisons' own verified tracked-changes writer (buildVerifiedRedline: accept
 * all gives the suggested text, reject all the document's). CPU-bound, so on a pool thread.
 */
import { compareTexts } from '../../compare/compare-texts'
import { buildVerifiedRedline } from '../../compare/redline-docx'

export interface PlaybookRedlineInput {
  base: string
  revised: string
}

export function playbookRedlineTask(input: PlaybookRedlineInput): Uint8Array {
  return buildVerifiedRedline(compareTexts(input.base, input.revised, { notes: false }))
}
