/**
 * The import boundaries of eslint.config.js (issue 10) fire: linting a file that reaches across a
 * boundary fails `npm test`, whether or not the import spells a `.js` suffix (TypeScript resolves
 * `./x.js` to `x.ts`; an import ESLint cannot resolve is an error of its own, so no path slips by).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const eslint = new ESLint({ cwd: root })

/**
 * The rules broken by one import line in a (virtual) file at `file`, relative to the root, each
 * named once (an import may cross two zones of the same rule).
 */
async function brokenRules(file: string, from: string): Promise<(string | null)[]> {
  const code = `import * as imported from '${from}'\nexport const used = imported\n`
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  return [...new Set((result?.messages ?? []).map((m) => m.ruleId))]
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
    [
      'a web feature importing another',
      'web/features/entities/x.tsx',
      '../documents/api/documents-api',
    ],
    [
      'a web feature importing the app layer',
      'web/features/entities/x.tsx',
      '../../app/root-layout',
    ],
    ['shared web code importing a feature', 'web/lib/x.ts', '../features/documents/upload-rules'],
    ['web code importing server code', 'web/lib/x.ts', '../../server/errors/app-error'],
    ['server code importing web code', 'server/http/x.ts', '../../web/lib/utils'],
    ['a UI primitive importing the API client', 'web/components/ui/x.tsx', '../../lib/api'],
    [
      "a UI primitive importing a feature's API client",
      'web/components/ui/x.tsx',
      '../../features/documents/api/documents-api',
    ],
    ['server code importing a test helper', 'server/db/x.ts', '../test/test-database'],
    ['web code importing a test helper', 'web/lib/x.ts', '../test/stub-fetch'],
    ['production code importing a test file', 'web/hooks/x.ts', './jobs.test'],
    ['an infrastructure layer importing a higher one', 'server/db/x.ts', '../lists/list-kit'],
    [
      'an infrastructure folder importing a peer of its layer',
      'server/audit/x.ts',
      '../events/record-event',
    ],
    ['infrastructure importing the wiring containers', 'server/jobs/x.ts', '../services'],
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

  it(
    'refuses an import that closes a cycle (server/main.ts imports server/app.ts)',
    { timeout: 30_000 },
    async () => {
      expect(await brokenRules('server/app.ts', './main')).toEqual(['import-x/no-cycle'])
    },
  )

  it('lets a test reach any layer and the test helpers', { timeout: 30_000 }, async () => {
    expect(await brokenRules('server/db/x.test.ts', '../test/test-app')).toEqual([])
    expect(await brokenRules('server/db/x.test.ts', '../lists/list-kit')).toEqual([])
    expect(await brokenRules('web/lib/x.test.ts', '../test/stub-fetch')).toEqual([])
  })

  it(
    'lets a layer import a lower one, and a UI primitive the class-name helper',
    {
      timeout: 30_000,
    },
    async () => {
      expect(await brokenRules('server/http/x.ts', '../db/client')).toEqual([])
      expect(await brokenRules('server/auth/x.ts', '../lists/list-kit')).toEqual([])
      expect(await brokenRules('web/components/ui/x.tsx', '../../lib/utils')).toEqual([])
    },
  )

  it('lets a feature import shared code', { timeout: 30_000 }, async () => {
    expect(await brokenRules('server/features/documents/x.ts', '../../errors/app-error')).toEqual(
      [],
    )
    expect(
      await brokenRules('web/features/entities/x.tsx', '../../lib/refresh-after-write'),
    ).toEqual([])
  })
})

describe('architecture map', () => {
  it('gives every server folder and every shared web folder a line in docs/architecture.md', () => {
    const map = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')
    const folders = (dir: string) =>
      readdirSync(path.join(root, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${dir}/${entry.name}/`)
    const unmapped = [...folders('server'), ...folders('web'), 'web/components/ui/'].filter(
      (folder) => !map.includes(`| \`${folder}`),
    )
    expect(unmapped).toEqual([])
  })
})
