import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { labelFileKey, loadCuad } from './cuad-dataset'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function cuadFolder(files: Record<string, string>, labelRows: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'cuad-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  writeFileSync(join(dir, 'labels.csv'), ['Filename,Parties', ...labelRows].join('\n'))
  return dir
}

describe('labelFileKey', () => {
  it('drops a .pdf extension followed by a stray apostrophe or spaces', () => {
    expect(labelFileKey("ACME_Supply Agreement.pdf'")).toBe(labelFileKey('ACME_Supply Agreement'))
    expect(labelFileKey('ACME_Supply Agreement.PDF  ')).toBe('acmesupplyagreement')
  })

  it('keeps a name that only ends in the letters pdf', () => {
    expect(labelFileKey('Notes on pdf')).toBe('notesonpdf')
  })
})

describe('loadCuad', () => {
  it("matches a label row whose file name ends in .pdf' and lists rows without text", () => {
    const dir = cuadFolder({ 'Alpha-Licence.txt': 'Alpha text', 'Beta.txt': 'Beta text' }, [
      `"Alpha-Licence.pdf'",['Alpha Corp']`,
      'Beta.pdf,[]',
      'Gamma.pdf,[]',
    ])
    const { contracts, unmatched } = loadCuad(dir, join(dir, 'labels.csv'))
    expect(contracts.map((c) => c.name)).toEqual(['Alpha-Licence.txt', 'Beta.txt'])
    expect(contracts[0]?.clauses.get('Parties')).toEqual(['Alpha Corp'])
    expect(unmatched).toEqual(['Gamma.pdf'])
  })
})
