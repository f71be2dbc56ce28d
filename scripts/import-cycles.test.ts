/**
 * Zero import circles (issue 42): the import graph of server/, web/ and scripts/ (tests included)
 * has no cycle, type-only imports counted. A cycle makes module load order decide what is
 * undefined at start-up and ties files that should stand apart (a 13-file one ran through the job
 * catalogue and services.ts, decision 0119); break one by moving the shared contract or type down
 * a layer, not by a lazy import. ESLint's import-x/no-cycle skips type-only imports; this does
 * not. The graph comes from madge (TypeScript resolution through tsconfig), not a parser of ours.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import madge from 'madge'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * The import circles among `folders` (relative to `base`, the repository root by default), each a
 * list of files (relative to `base`) in import order, the last importing the first.
 */
async function importCycles(folders: readonly string[], base = root): Promise<string[][]> {
  const graph = await madge(
    folders.map((folder) => path.join(base, folder)),
    {
      baseDir: base,
      fileExtensions: ['ts', 'tsx', 'mts', 'js', 'mjs'],
      // Resolves `.js` specifiers of TypeScript files and the web's path aliases.
      tsConfig: path.join(root, 'tsconfig.web.json'),
      excludeRegExp: [/node_modules/, /\.d\.ts$/],
      // Type-only imports count: a circle of types still ties the files together.
      detectiveOptions: {
        ts: { skipTypeImports: false },
        tsx: { skipTypeImports: false },
      },
    },
  )
  return graph.circular()
}

describe('import cycles', () => {
  it('server/, web/ and scripts/ have no import cycle (each listed file by file)', async () => {
    const cycles = await importCycles(['server', 'web', 'scripts'])
    expect(cycles.map((cycle) => [...cycle, cycle[0]].join(' -> '))).toEqual([])
  }, 120_000)

  it('finds a cycle made of type-only imports', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'import-cycle-'))
    try {
      await writeFile(
        path.join(base, 'first.ts'),
        "import type { Second } from './second'\nexport type First = { next: Second }\n",
      )
      await writeFile(
        path.join(base, 'second.ts'),
        "import type { First } from './first.js'\nexport type Second = { back: First }\n",
      )
      await writeFile(path.join(base, 'apart.ts'), "import './first'\nexport const apart = 1\n")
      expect(await importCycles(['.'], base)).toEqual([['first.ts', 'second.ts']])
    } finally {
      await rm(base, { recursive: true, force: true })
    }
  })
})
