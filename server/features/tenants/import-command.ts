/**
 * The operator's import, outside the web server (`npm run lexdesk -- import --file FILE.zip
 * --org-name NAME --owner EMAIL` or `--org SLUG`, scripts/lexdesk.ts; decisions 0071, 0103): the same
 * check, staging and publication as the import job (importZip), reading the archive straight
 * from the file. Recorded in the receiving organisation's audit and event logs as the system's.
 */
import { randomUUID } from 'node:crypto'
import yauzl from 'yauzl'
import type { Db } from '../../db/client'
import { AppError } from '../../errors/app-error'
import { ARCHIVE_OPEN_OPTIONS } from './check-archive'
import { orgIdBySlug, userIdByEmail } from './org-members'
import { importZip, type ImportDeps, type ImportTarget } from './import-job'
import type { ImportResult } from './publish-import'

/** What the command was asked: the archive, and a new organisation's name or an existing slug. */
export interface ImportCommand {
  file: string
  /** A new organisation of this name… */
  orgName?: string
  /** …or the existing organisation of this slug. */
  org?: string
  /** The e-mail of the new organisation's owner (an account here); required with `orgName`. */
  owner?: string
}

/**
 * Imports `command.file`; resolves to the organisation's id and the counts per table. Throws 404
 * `organization_not_found` for an unknown slug, 400 `validation_failed` for an owner e-mail with
 * no account, a new organisation without one, or without exactly one target, 422 `archive_invalid` for a file that is not a ZIP,
 * and the import's own refusals (nothing written).
 */
export async function importFromFile(
  deps: ImportDeps,
  command: ImportCommand,
  progress: (message: string) => void = () => undefined,
): Promise<ImportResult> {
  if ((command.orgName === undefined) === (command.org === undefined))
    throw new AppError('validation_failed', 'Give either --org-name NAME or --org SLUG.')
  const target: ImportTarget = command.org
    ? { targetOrgId: await orgIdBySlug(deps.db, command.org) }
    : { orgName: command.orgName ?? '' }
  // An import adds nobody but its importer (decision 0103): a new organisation needs its owner.
  if (command.orgName !== undefined && !command.owner)
    throw new AppError(
      'validation_failed',
      "Name the new organisation's owner with --owner EMAIL: an import adds nobody else.",
    )
  const userId = command.owner ? await ownerOf(deps.db, command.owner) : null
  const zip = await yauzl
    .openPromise(command.file, { ...ARCHIVE_OPEN_OPTIONS, autoClose: false })
    .catch(() => {
      throw new AppError('archive_invalid', `${command.file} is not a readable ZIP archive.`)
    })
  try {
    return await importZip(deps, zip, { userId, jobId: randomUUID(), bySystem: true }, target, {
      signal: new AbortController().signal,
      progress,
    })
  } finally {
    zip.close()
  }
}

/** The account of the new organisation's owner, or 400. */
async function ownerOf(db: Db, email: string): Promise<string> {
  const id = await userIdByEmail(db, email)
  if (!id) throw new AppError('validation_failed', `No account has the e-mail ${email}.`)
  return id
}
