/**
 * The sentences a finding may cite: operative text only, never a heading, a definition, a recital,
 * the preamble, a signature block, an exhibit's title, a table of contents or page furniture
 * (issue 48, decision 0110).
 */
import type { QuotedSpan } from '../../types'
import { isOperativePassage } from '../operative-passage'
import { documentStructure } from './document-structure'

/**
 * The operative sentences among `sentences` (segmentSentences of one document, in order), as the
 * same spans in the same order: those documentStructure types 'operative' and isOperativePassage
 * accepts (it also rejects survival lists). Pure; never throws.
 */
export function evidenceSentences(sentences: readonly QuotedSpan[]): QuotedSpan[] {
  return documentStructure(sentences)
    .filter((s) => s.kind === 'operative' && isOperativePassage(s.text))
    .map((s) => ({ start: s.start, end: s.end, text: s.text }))
}
