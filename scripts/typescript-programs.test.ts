/**
 * The browser's and the server's TypeScript programs are kept apart (issue 21): under
 * tsconfig.web.json a Node global (`process`, `Buffer`) is an error, under tsconfig.server.json a
 * DOM global (`document`, `window`) is. Each case compiles one virtual file with the options of
 * that config, so the check costs seconds, not a full `tsc -b`.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The diagnostics of `code` compiled alone as `file` (relative to the root) under `config`. */
function diagnostics(config: string, file: string, code: string): string[] {
  const configPath = path.join(root, config)
  const { config: json } = ts.readConfigFile(configPath, ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(json, ts.sys, root, undefined, configPath)
  const fileName = path.join(root, file)
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (name) => name === fileName || ts.sys.fileExists(name)
  host.readFile = (name) => (name === fileName ? code : readFile(name))
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, code, language)
      : getSourceFile(name, language, ...rest)
  const program = ts.createProgram({ rootNames: [fileName], options, host })
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

describe('TypeScript programs', () => {
  it('refuses Node globals in the web program', { timeout: 30_000 }, () => {
    const found = diagnostics(
      'tsconfig.web.json',
      'web/lib/probe.ts',
      'export const probe = [process.env.HOME, Buffer.from("x")]\n',
    )
    expect(found.join('\n')).toMatch(/Cannot find name 'process'/)
    expect(found.join('\n')).toMatch(/Cannot find name 'Buffer'/)
  })

  it('refuses DOM globals in the server program', { timeout: 30_000 }, () => {
    const found = diagnostics(
      'tsconfig.server.json',
      'server/http/probe.ts',
      'export const probe = [document.title, window.location.href]\n',
    )
    expect(found.join('\n')).toMatch(/Cannot find name 'document'/)
    expect(found.join('\n')).toMatch(/Cannot find name 'window'/)
  })

  it('accepts what each side is for', { timeout: 30_000 }, () => {
    expect(
      diagnostics(
        'tsconfig.web.json',
        'web/lib/probe.ts',
        'export const probe = [document.title, import.meta.env.DEV]\n',
      ),
    ).toEqual([])
    expect(
      diagnostics(
        'tsconfig.server.json',
        'server/http/probe.ts',
        'import { Buffer } from "node:buffer"\nexport const probe = [process.env.HOME, Buffer.from("x")]\n',
      ),
    ).toEqual([])
  })
})
