import { describe, expect, it } from 'vitest'
import { dependencyProblems, readPackageJson } from './dependency-audit.mjs'

describe('package.json against what the code imports (decision 0118)', () => {
  it('dependencies are exactly what production imports, and every package is used', async () => {
    expect(await dependencyProblems()).toEqual([])
  }, 60_000)

  it('a test-only, unused or undeclared package is reported', async () => {
    const pkg = readPackageJson()
    const problems = await dependencyProblems({
      ...pkg,
      dependencies: Object.fromEntries([
        ...Object.entries(pkg.dependencies ?? {}).filter(([name]) => name !== 'fflate'),
        ['tsx', '*'],
      ]),
      devDependencies: { ...pkg.devDependencies, 'left-pad': '*' },
    })
    expect(problems).toEqual([
      'fflate: production imports it, but it is not in dependencies',
      'tsx: in dependencies, but production never imports it (a dev dependency, or unused)',
      'left-pad: declared, but nothing imports it or runs its command',
      'fflate: imported, but not in package.json (it comes only through another package)',
    ])
  }, 60_000)
})
