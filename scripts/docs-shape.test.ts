/**
 * The docs a newcomer reads first stay short and true (issue 42): the README fits in 8 KiB, every
 * decision record is in docs/decisions/README.md's index, and docs/architecture.md's map names
 * every folder of server/ and web/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** Every folder under `dir` (relative to the root, '/'-separated), test folders included. */
function folders(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const child = `${dir}/${entry.name}`
      return [child, ...folders(child)]
    })
}

/**
 * Whether the map names `folder`: by its own path in backquotes, by a `<name>` pattern of its
 * parent (`server/features/<name>/`) or of an ancestor (`web/features/<name>/api/`), or in the
 * row of its nearest ancestor that has one, which mentions its name in backquotes (`ocr/`) or as
 * a listed word ("one folder per capability (analyzer, answer, …)").
 */
function mapNames(map: string, folder: string): boolean {
  if (map.includes(`\`${folder}/`) || map.includes(`\`${folder}\``)) return true
  const name = path.posix.basename(folder)
  if (map.includes(`\`${path.posix.dirname(folder)}/<name>/\``)) return true
  // A pattern with `<name>` for an ancestor: `web/features/<name>/api/` names every feature's api/.
  const parts = folder.split('/')
  for (let i = 0; i < parts.length - 1; i++) {
    const pattern = [...parts.slice(0, i), '<name>', ...parts.slice(i + 1)].join('/')
    if (map.includes(`\`${pattern}/\``)) return true
  }
  const rows = map.split('\n')
  for (let ancestor = path.posix.dirname(folder); ancestor !== '.';) {
    const row = rows.find((line) => line.startsWith(`| \`${ancestor}/\``))
    if (row) return new RegExp(`[\`(, ]${name}[/\`,)]`).test(row)
    ancestor = path.posix.dirname(ancestor)
  }
  return false
}

describe('the docs a newcomer reads first', () => {
  it('keep the README within 8 KiB', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(8192)
  })

  it('index every decision record in docs/decisions/README.md', () => {
    const index = read('docs/decisions/README.md')
    const records = readdirSync(path.join(root, 'docs/decisions')).filter((file) =>
      /^\d{4}-.*\.md$/.test(file),
    )
    expect(records.filter((file) => !index.includes(`(${file})`))).toEqual([])
  })

  it("name every folder of server/ and web/ in docs/architecture.md's map", () => {
    const map = read('docs/architecture.md')
    const unnamed = [...folders('server'), ...folders('web')].filter(
      (folder) => !mapNames(map, folder),
    )
    expect(unnamed).toEqual([])
  })
})
