/**
 * The import boundaries of eslint.config.js (issue 10) fire: linting a file that reaches across a
 * boundary fails `npm test`, whether or not the import spells a `.js` suffix (TypeScript resolves
 * `./x.js` to `x.ts`; an import ESLint cannot resolve is an error of its own, so no path slips by).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const eslint = new ESLint({ cwd: root })

/** The rules broken by one import line in a (virtual) file at `file`, relative to the root. */
async function brokenRules(file: string, from: string): Promise<(string | null)[]> {
  const code = `import * as imported from '${from}'\nexport const used = imported\n`
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  return (result?.messages ?? []).map((m) => m.ruleId)
}

describe('import boundaries', () => {
  it.each([
    ['a server feature importing another', 'server/features/documents/x.ts', '../analysis/service'],
    [
      'server infrastructure importing a feature',
      'server/auth/x.ts',
      '../features/documents/service',
    ],
    ['a server feature importing the app', 'server/features/documents/x.ts', '../../app'],
    ['a web feature importing another', 'web/features/entities/x.tsx', '../documents/api'],
    [
      'a web feature importing the app layer',
      'web/features/entities/x.tsx',
      '../../app/root-layout',
    ],
    ['shared web code importing a feature', 'web/lib/x.ts', '../features/orgs/current-org'],
  ])('refuses %s', { timeout: 30_000 }, async (_case, file, from) => {
    expect(await brokenRules(file, from)).toEqual(['import-x/no-restricted-paths'])
  })

  it(
    'refuses an import it cannot resolve, such as a .js suffix on a TypeScript file',
    { timeout: 30_000 },
    async () => {
      expect(await brokenRules('server/features/documents/x.ts', '../analysis/service.js')).toEqual(
        ['import-x/no-unresolved'],
      )
    },
  )

  it('lets a feature import shared code', { timeout: 30_000 }, async () => {
    expect(await brokenRules('server/features/documents/x.ts', '../../errors/app-error')).toEqual([])
    expect(
      await brokenRules('web/features/entities/x.tsx', '../../lib/refresh-after-write'),
    ).toEqual([])
  })
})
