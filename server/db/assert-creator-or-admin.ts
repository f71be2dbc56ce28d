/**
 * The "creator or admin" rule of deletions and cancellations: a member may act only on what they
 * created themselves; an admin or owner on anything in the organisation (docs/authorization.md).
 */
import type { Principal } from './tenant'
import { AppError } from '../errors/app-error'
import type { ErrorCode } from '../errors/error-codes'
import { hasRole } from './roles'

/** The problem a refusal answers with: a 403 code and its message for the user. */
export interface CreatorRefusal {
  code: Extract<ErrorCode, 'forbidden' | 'not_document_creator' | 'not_recording_creator'>
  detail: string
}

/**
 * Passes when `principal` holds the admin role or higher, or is the user who created the row
 * (`createdBy`, the row's nullable `created_by`); throws `AppError(refusal.code, refusal.detail)`
 * (403) otherwise. A principal without a user (a system actor, or a credential not bound to a
 * user) is never the creator, not even of a row whose creator is unknown (`createdBy` null): two
 * unknowns are not the same person.
 */
export function assertCreatorOrAdmin(
  principal: Pick<Principal, 'userId' | 'role'>,
  createdBy: string | null,
  refusal: CreatorRefusal,
): void {
  if (hasRole(principal.role, 'admin')) return
  if (principal.userId !== null && principal.userId === createdBy) return
  throw new AppError(refusal.code, refusal.detail)
}
