import { describe, expect, it } from 'vitest'
import { LocalChat, NOT_WITHOUT_CONSENT, PER_DOCUMENT_NOTICE } from './local-chat'
import type { ChatPassage } from './types'

async function answerOf(question: string, passages: ChatPassage[]): Promise<string> {
  let text = ''
  for await (const delta of new LocalChat().answer([{ role: 'user', content: question }], passages))
    text += delta
  return text
}

const ALPHA_CONSENT =
  'The Recipient shall not, without the prior written consent of the Discloser, disclose any Confidential Information to any third party.'
const BETA_FREE =
  'The Recipient may disclose Confidential Information to any third party that has agreed in writing to keep it confidential.'

describe('the local engine answering about documents', () => {
  it('leads a prohibition lifted by consent with "No, not without consent", quoting the clause', async () => {
    const text = await answerOf(
      'May the Recipient disclose Confidential Information to third parties?',
      [{ n: 1, title: 'Alpha NDA', content: ALPHA_CONSENT, documentId: 'a' }],
    )
    expect(text.startsWith(NOT_WITHOUT_CONSENT)).toBe(true)
    expect(text).toContain(`“${ALPHA_CONSENT}” [1]`)
  })

  it('answers per document when the passages come from several, each quoting only its own', async () => {
    const text = await answerOf(
      'May the Recipient disclose Confidential Information to third parties?',
      [
        { n: 1, title: 'Alpha NDA', content: ALPHA_CONSENT, documentId: 'a' },
        { n: 2, title: 'Beta NDA', content: BETA_FREE, documentId: 'b' },
      ],
    )
    expect(text.startsWith(PER_DOCUMENT_NOTICE)).toBe(true)
    const alpha = text.slice(text.indexOf('\n\nAlpha NDA: '), text.indexOf('\n\nBeta NDA: '))
    const beta = text.slice(text.indexOf('\n\nBeta NDA: '))
    expect(alpha).toContain(NOT_WITHOUT_CONSENT)
    expect(alpha).toContain('[1]')
    expect(alpha).not.toContain('[2]')
    expect(beta).toContain('Yes.')
    expect(beta).toContain('[2]')
    expect(beta).not.toContain('[1]')
  })

  it('gives one answer when every passage is of one document', async () => {
    const text = await answerOf(
      'May the Recipient disclose Confidential Information to third parties?',
      [
        { n: 1, title: 'Beta NDA', content: BETA_FREE, documentId: 'b' },
        {
          n: 2,
          title: 'Beta NDA',
          content: 'This Agreement is governed by Irish law.',
          documentId: 'b',
        },
      ],
    )
    expect(text.startsWith('Yes.')).toBe(true)
  })
})
