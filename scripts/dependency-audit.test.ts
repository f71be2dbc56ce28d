import { describe, expect, it } from 'vitest'
import { dependencyProblems, readPackageJson } from './dependency-audit.mjs'

describe('package.json against what the code imports (decision 0118)', () => {
  it('dependencies are exactly what production imports, and every package is used', async () => {
    expect(await dependencyProblems()).toEqual([])
  }, 60_000)

  it('a test-only or unused package among the dependencies is reported', async () => {
    const pkg = readPackageJson()
    const problems = await dependencyProblems({
      ...pkg,
      dependencies: { ...pkg.dependencies, tsx: '*' },
      devDependencies: { ...pkg.devDependencies, 'left-pad': '*' },
    })
    expect(problems).toEqual([
      'tsx: in dependencies, but production never imports it (a dev dependency, or unused)',
      'left-pad: declared, but nothing imports it or runs its command',
    ])
  }, 60_000)
})
