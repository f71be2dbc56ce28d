/**
 * The version of this Lexdesk (package.json's `version`), written into every archive's manifest
 * so an importer can say which release made it.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { REPOSITORY_ROOT } from '../../repository-root'

export const LEXDESK_VERSION: string = (
  JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    version: string
  }
).version
