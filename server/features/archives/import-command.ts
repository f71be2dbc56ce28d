/**
 * The operator's import, outside the web server (`npm run lexdesk -- import --file FILE.zip
 * --org-name NAME --owner EMAIL` or `--org SLUG`, scripts/lexdesk.ts; decisions 0071, 0103): the same
 * check, staging and publication as the import job (importZip), reading the archive straight
 * from the file. Recorded in the receiving organisation's audit and event logs as the system's.
 */
import { randomUUID } from 'node:crypto'
import yauzl from 'yauzl'
import { AppError } from '../../errors/app-error'
import { ARCHIVE_OPEN_OPTIONS } from './check-archive'
import type { Auth } from '../../auth/auth'
import { accountForEmail, type AccountForEmail } from '../../auth/account-for-email'
import { orgIdBySlug, orgSlugById } from './org-members'
import { importZip, type ImportDeps, type ImportTarget } from './import-job'
import type { ImportResult } from './publish-import'

/** The import's services and better-auth, which creates a new owner's account. */
export type ImportCommandDeps = ImportDeps & { auth: Pick<Auth, '$context'> }

/** What the command imported: the organisation (its id and slug, which the next command needs). */
export type ImportCommandResult = ImportResult & {
  slug: string
  /** The new organisation's owner, `created` when the command made the account. */
  owner?: AccountForEmail
}

/** What the command was asked: the archive, and a new organisation's name or an existing slug. */
export interface ImportCommand {
  file: string
  /** A new organisation of this name… */
  orgName?: string
  /** …or the existing organisation of this slug. */
  org?: string
  /**
   * The e-mail of the new organisation's owner, required with `orgName`: its account, or one
   * created as a first sign-in would (a fresh install has none before someone signs in).
   */
  owner?: string
}

/**
 * Imports `command.file`; resolves to the organisation's id, slug and the counts per table, and
 * the owner's account. Throws 404 `organization_not_found` for an unknown slug, 400
 * `validation_failed` for an owner that is no e-mail address, a new organisation without one, or
 * without exactly one target, 422 `archive_invalid` for a file that is not a ZIP, and the
 * import's own refusals (nothing written: an owner account the command created goes again).
 */
export async function importFromFile(
  deps: ImportCommandDeps,
  command: ImportCommand,
  progress: (message: string) => void = () => undefined,
): Promise<ImportCommandResult> {
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
  const zip = await yauzl
    .openPromise(command.file, { ...ARCHIVE_OPEN_OPTIONS, autoClose: false })
    .catch(() => {
      throw new AppError('archive_invalid', `${command.file} is not a readable ZIP archive.`)
    })
  let owner: AccountForEmail | undefined
  try {
    owner = command.owner ? await accountForEmail(deps.auth, command.owner) : undefined
    const userId = owner?.id ?? null
    const result = await importZip(
      deps,
      zip,
      { userId, jobId: randomUUID(), bySystem: true },
      target,
      {
        signal: new AbortController().signal,
        progress,
      },
    )
    return { ...result, slug: await orgSlugById(deps.db, result.orgId), ...(owner && { owner }) }
  } catch (error) {
    // A refused import leaves no account behind that only it asked for.
    if (owner?.created) await deleteAccount(deps, owner.id)
    throw error
  } finally {
    zip.close()
  }
}

/** Removes an account the command created (better-auth's own deletion, as for any user). */
async function deleteAccount(deps: ImportCommandDeps, userId: string): Promise<void> {
  const { internalAdapter } = await deps.auth.$context
  await internalAdapter.deleteUser(userId)
}
