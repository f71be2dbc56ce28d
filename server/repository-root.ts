/**
 * The folder holding Lexdesk's package.json (the repository, or /app in the image): the nearest
 * one above this module, which is server/ when run from source and dist/server/ when built
 * (scripts/build-server.mjs, decision 0118), so paths outside the server (the built web app,
 * package.json) do not depend on how deep the running file sits.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Walks up from `folder` to the first folder with a package.json; throws when there is none. */
export function findRepositoryRoot(folder: string): string {
  for (let current = folder; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current
    if (path.dirname(current) === current) {
      throw new Error(`No package.json above ${folder}: Lexdesk runs from its repository or image`)
    }
  }
}

/** Absolute path of the repository (or image) root. */
export const REPOSITORY_ROOT = findRepositoryRoot(path.dirname(fileURLToPath(import.meta.url)))
