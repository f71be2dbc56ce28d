/**
 * The version of this Lexdesk (package.json's `version`), written into every archive's manifest
 * so an importer can say which release made it.
 */
import { readFileSync } from 'node:fs'

export const LEXDESK_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version
