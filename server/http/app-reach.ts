/**
 * The app clause of decision 0048 for an `appId` a request names: a credential bound to one app
 * reaches that app only, so another app named in a query or body does not exist for it (404
 * `app_not_found`, as a credential naming another app for a child credential, decision 0104, and
 * as another app's document is a 404), and a write it files organisation-wide (no app) is 403
 * `outside_app_scope`, as the database's WITH CHECK answers it (server/http/problem.ts). Checked
 * before any work starts: on every route, in its query and JSON body by the guard and in its form
 * by readMultipart (assertNamedAppsInReach), and, for a write whose rows a job writes later, by
 * its route (assertWritableIn). A route of the whole organisation (no app: the audit log,
 * storage, the SQL runner, creating apps) refuses such a credential outright, as it declares
 * (`config.app: 'organisation'`, server/auth/route-roles.ts; decision 0136, amended).
 */
import { AppError } from '../errors/app-error'
import type { Principal } from '../db/tenant'

/**
 * The names under which a request's query or JSON body names an app: `appId` (the API's),
 * `app_id` (the assistant's and the tokens' snake case) and `_app` (semantic_search's).
 */
export const APP_FIELDS = ['appId', 'app_id', '_app'] as const

/**
 * Throws as assertAppInReach for every app `input` (a parsed query, a JSON body or a form's
 * fields; anything else names none) names under APP_FIELDS (a non-empty string). The check of
 * every route: the guard's for queries and JSON bodies (route-roles.ts), readMultipart's for
 * forms (server/uploads/read-multipart.ts).
 */
export function assertNamedAppsInReach(principal: Pick<Principal, 'appId'>, input: unknown): void {
  if (!principal.appId || typeof input !== 'object' || input === null) return
  for (const field of APP_FIELDS) {
    const named = (input as Record<string, unknown>)[field]
    // An empty form field names no app, as the routes read it.
    if (typeof named === 'string' && named !== '') assertAppInReach(principal, named)
  }
}

/**
 * Whether `principal` may name `appId` (absent or null: no app named, always). Ids compare
 * without regard to case, as Postgres compares uuids.
 */
export function appInReach(
  principal: Pick<Principal, 'appId'>,
  appId: string | null | undefined,
): boolean {
  return (
    !principal.appId ||
    appId === undefined ||
    appId === null ||
    appId.toLowerCase() === principal.appId.toLowerCase()
  )
}

/**
 * Throws 404 `app_not_found` when `principal` is bound to one app and `appId` names another;
 * an organisation-wide principal, or no app named, passes.
 */
export function assertAppInReach(
  principal: Pick<Principal, 'appId'>,
  appId: string | null | undefined,
): void {
  if (!appInReach(principal, appId))
    throw new AppError('app_not_found', 'No such app in this organisation')
}

/**
 * For a write filing rows under `appId` (null or absent: organisation-wide): throws as
 * assertAppInReach, and 403 `outside_app_scope` when `principal` is bound to one app and the
 * write names none.
 */
export function assertWritableIn(
  principal: Pick<Principal, 'appId'>,
  appId: string | null | undefined,
): void {
  assertAppInReach(principal, appId)
  if (principal.appId && !appId) throw outsideAppScope()
}

/**
 * The 403 `outside_app_scope` problem of a write outside an app-bound credential's app, for code
 * that meets the database's refusal where no request answers it (a job).
 */
export function outsideAppScope(): AppError {
  return new AppError(
    'outside_app_scope',
    'This credential reaches only one app: create and change rows of that app only (give its appId)',
  )
}
