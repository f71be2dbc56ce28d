/**
 * The composition root stays small (issue 42, decision 0124): buildApp reads as its parts,
 * features are registered from one table with one option shape, and the app's dependencies do
 * not repeat the configuration. Read with the TypeScript compiler's parser, not patterns.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { FEATURES } from './app'

const serverDir = import.meta.dirname

/** The parsed source of a file of server/. */
function parse(file: string): ts.SourceFile {
  const text = readFileSync(path.join(serverDir, file), 'utf8')
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
}

/** Every node of `root`, depth first. */
function* nodesOf(root: ts.Node): Generator<ts.Node> {
  yield root
  for (const child of root.getChildren()) yield* nodesOf(child)
}

/** The member names of the interface `name` declared in `source`; throws when there is none. */
function interfaceMembers(source: ts.SourceFile, name: string): string[] {
  const declaration = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  )
  if (!declaration) throw new Error(`no interface ${name} in ${source.fileName}`)
  return declaration.members.flatMap((m) =>
    m.name && ts.isIdentifier(m.name) ? [m.name.text] : [],
  )
}

describe('the composition root (server/app.ts)', () => {
  const app = parse('app.ts')

  it('keeps buildApp within 100 lines, its work in registerPlatform, buildServices, registerCredentials, registerFeatures and registerPlatformRoutes', () => {
    const buildApp = app.statements.find(
      (s): s is ts.FunctionDeclaration =>
        ts.isFunctionDeclaration(s) && s.name?.text === 'buildApp',
    )
    expect(buildApp, 'buildApp is a function declaration of app.ts').toBeDefined()
    const first = app.getLineAndCharacterOfPosition(buildApp!.getStart(app)).line
    const last = app.getLineAndCharacterOfPosition(buildApp!.getEnd()).line
    expect(last - first + 1).toBeLessThanOrEqual(100)
    const called = new Set(
      [...nodesOf(buildApp!)]
        .filter(ts.isCallExpression)
        .map((call) => call.expression.getText(app)),
    )
    for (const part of [
      'registerPlatform',
      'buildServices',
      'registerCredentials',
      'registerFeatures',
    ])
      expect(called, `buildApp calls ${part}`).toContain(part)
  })

  it('registers no feature plugin outside the feature table', () => {
    const featureImports = new Set(
      app.statements
        .filter(ts.isImportDeclaration)
        .filter((s) => (s.moduleSpecifier as ts.StringLiteral).text.startsWith('./features/'))
        .flatMap((s) => {
          const bindings = s.importClause?.namedBindings
          return bindings && ts.isNamedImports(bindings)
            ? bindings.elements.map((e) => e.name.text)
            : []
        }),
    )
    const registeredDirectly = [...nodesOf(app)]
      .filter(ts.isCallExpression)
      .filter((call) => /\.register$/.test(call.expression.getText(app)))
      .map((call) => call.arguments[0]?.getText(app) ?? '')
      .filter((plugin) => featureImports.has(plugin))
    expect(registeredDirectly).toEqual([])
  })

  it('lists every feature folder with routes in FEATURES', () => {
    const features = path.join(serverDir, 'features')
    const withRoutes = readdirSync(features).filter((name) =>
      readdirSync(path.join(features, name)).some((file) => file.endsWith('routes.ts')),
    )
    const listed = new Set(FEATURES.map((feature) => feature.name))
    expect(withRoutes.filter((name) => !listed.has(name))).toEqual([])
    expect([...listed].filter((name) => !withRoutes.includes(name))).toEqual([])
  })

  it('takes the parsed configuration whole: AppDeps repeats none of its settings', () => {
    const configured = new Set(interfaceMembers(parse('config.ts'), 'Config'))
    const deps = interfaceMembers(app, 'AppDeps')
    expect(deps).toContain('config')
    // The secret main.ts resolves: Config's is undefined when it is kept in the data folder.
    expect(deps.filter((name) => configured.has(name) && name !== 'secret')).toEqual([])
  })
})
