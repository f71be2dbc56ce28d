/**
 * What the documents route loads before anything is opened: the files its route element imports
 * statically, type-only imports left out (they ship no code). The analysis feature is loaded
 * when a document opens (web/app/documents-route.tsx), which keeps the route under its 250 KiB
 * gzip budget (scripts/bundle-budgets.ts). The graph comes from madge, as in import-cycles.test.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import madge from 'madge'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The files (relative to the repository) `entry` loads with it: static, value imports only. */
async function firstLoad(entry: string): Promise<string[]> {
  const graph = await madge(path.join(root, entry), {
    baseDir: root,
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, 'tsconfig.web.json'),
    excludeRegExp: [/node_modules/, /\.d\.ts$/],
    detectiveOptions: {
      ts: { skipTypeImports: true, skipAsyncImports: true },
      tsx: { skipTypeImports: true, skipAsyncImports: true },
    },
  })
  const tree = graph.obj()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const imported of tree[file] ?? []) visit(imported)
  }
  visit(entry)
  return [...seen]
}

describe("the documents route's first load", () => {
  it('leaves out the analysis feature until a document is opened', async () => {
    const files = await firstLoad('web/app/documents-route.tsx')
    expect(files).toContain('web/features/documents/documents-screen.tsx')
    expect(files.filter((file) => file.startsWith('web/features/analysis/'))).toEqual([])
  }, 120_000)
})
