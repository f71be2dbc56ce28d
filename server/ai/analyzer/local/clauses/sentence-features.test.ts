import { describe, expect, it } from 'vitest'
import { segmentSentences } from '../sentences'
import { sentenceFeatures } from './sentence-features'

/** Features of each sentence of `text`, with the sentence's own text for lookup. */
function featuresOf(text: string): { text: string; features: string[] }[] {
  const sentences = segmentSentences(text)
  return sentenceFeatures(sentences).map((features, i) => ({
    text: sentences[i]?.text ?? '',
    features,
  }))
}

function find(rows: { text: string; features: string[] }[], start: string): string[] {
  const row = rows.find((r) => r.text.startsWith(start))
  if (!row) throw new Error(`no sentence starts with ${start}`)
  return row.features
}

describe('sentenceFeatures context', () => {
  const contract = [
    'This Supply Agreement is made as of March 1, 2020 by and between Acme Inc. ("Supplier") and Birch Inc. ("Buyer").',
    '"Confidential Information" means any information disclosed by one party to the other.',
    '9. Assignment.',
    'Neither party may assign this Agreement without the prior written consent of the other party.',
    'Any attempted transfer in breach of this Section shall be void.',
    'Buyer shall keep the Confidential Information secret.',
    'Supplier shall deliver the goods to Buyer.',
  ].join('\n\n')
  const rows = featuresOf(contract)

  it("gives a sentence its neighbours' cues, so the lead-in and the sentence after an operative clause are told apart from it", () => {
    // "Any attempted transfer ... void" has no assignment cue of its own; its previous sentence does.
    const after = find(rows, 'Any attempted transfer')
    expect(after).toContain('pr:Anti-Assignment')
    expect(find(rows, '9. Assignment')).toContain('nr:Anti-Assignment')
    expect(find(rows, 'Neither party may assign')).toContain('r:Anti-Assignment')
  })

  it('names the block kind of each sentence, so headings, definitions and the preamble can be weighed apart', () => {
    expect(find(rows, 'This Supply Agreement')).toContain('k:preamble')
    expect(find(rows, '"Confidential Information" means')).toContain('k:definition')
    expect(find(rows, 'Neither party may assign')).toContain('k:operative')
  })

  it('marks which fifth of the document a sentence is in', () => {
    expect(find(rows, 'This Supply Agreement')).toContain('p:0')
    expect(find(rows, 'Supplier shall deliver')).toContain('p:4')
  })

  it('marks a defined term used outside its definition, by the stems of its words', () => {
    const uses = find(rows, 'Buyer shall keep')
    expect(uses).toContain('d:use')
    expect(uses).toContain('d:confidenti_inform')
    expect(find(rows, '"Confidential Information" means')).not.toContain('d:confidenti_inform')
    // Inline definitions count too: "Supplier" is defined in the preamble's parentheses.
    expect(find(rows, 'Supplier shall deliver')).toContain('d:supplier')
  })
})
