import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadWordNet } from './wordnet-synonyms'

/** A tiny database in WordNet's own format: licence lines, offsets in sense order, hex counts. */
const dir = mkdtempSync(join(tmpdir(), 'wordnet-'))
const LICENCE = '  1 This software and database is being provided to you, the LICENSEE\n'
writeFileSync(
  join(dir, 'index.noun'),
  LICENCE +
    'copy n 2 1 @ 2 1 00000200 00000100  \n' +
    'transcript n 1 0 1 0 00000100  \n' +
    'written_matter n 1 0 1 0 00000200  \n',
)
writeFileSync(
  join(dir, 'data.noun'),
  LICENCE +
    '00000100 10 n 02 copy 0 transcript 0 000 | a reproduction  \n' +
    '00000200 10 n 02 copy 1 written_matter 0 000 | matter that is to be printed  \n',
)
writeFileSync(join(dir, 'index.verb'), LICENCE + 'destroy v 1 0 1 0 00000300  \n')
writeFileSync(
  join(dir, 'data.verb'),
  LICENCE + '00000300 30 v 03 destroy 0 destruct 0 ruin 0 000 | do away with  \n',
)
writeFileSync(join(dir, 'index.adj'), LICENCE + 'secret a 1 0 1 0 00000400  \n')
writeFileSync(
  join(dir, 'data.adj'),
  LICENCE + '00000400 00 s 02 secret(a) 0 confidential 0 000 | not openly made known  \n',
)
writeFileSync(join(dir, 'index.adv'), LICENCE)
writeFileSync(join(dir, 'data.adv'), LICENCE)
const wordnet = await loadWordNet(dir)
afterAll(() => rmSync(dir, { recursive: true }))

describe('WordNet synonyms', () => {
  it('lists a lemma’s synonyms in the index’s sense order, multi-word ones with spaces', () => {
    expect(wordnet.synonyms('copy')).toEqual(['written matter', 'transcript'])
  })

  it('finds the lemma of an inflected word by morphy’s detachment rules', () => {
    expect(wordnet.lemmas('copies')).toEqual(['copy'])
    expect(wordnet.synonyms('destroyed')).toEqual(['destruct', 'ruin'])
    expect(wordnet.synonyms('destroying')).toEqual(['destruct', 'ruin'])
  })

  it('drops adjective markers and never returns the word itself', () => {
    expect(wordnet.synonyms('confidential')).toEqual([])
    expect(wordnet.synonyms('secret')).toEqual(['confidential'])
  })

  it('gives nothing for a word WordNet lacks', () => {
    expect(wordnet.lemmas('shall')).toEqual([])
    expect(wordnet.synonyms('shall')).toEqual([])
  })

  it('rejects when the folder holds no WordNet', async () => {
    await expect(loadWordNet(join(dir, 'missing'))).rejects.toThrow(/ENOENT/)
  })
})
