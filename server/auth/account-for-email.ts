/**
 * The account of an e-mail address, created as a first magic-link sign-in creates it when there
 * is none (issue 43: the operator's `import --owner EMAIL` on a fresh install, before anyone has
 * signed in through the web).
 */
import { z } from 'zod'
import { AppError } from '../errors/app-error'
import type { Auth } from './auth'

/** An account found or just created. */
export interface AccountForEmail {
  id: string
  /** The address as stored: trimmed and lower-cased, as sign-in stores it. */
  email: string
  created: boolean
}

/**
 * Finds the account of `email` (trimmed, any case), or creates it through better-auth's own user
 * creation (`internalAdapter.createUser`, what the magic-link verify endpoint calls on a first
 * sign-in: the same `user` row, the same create hooks cleaning its name, the address lower-cased).
 * Unlike a first sign-in the address is not marked verified: nobody has proved it yet; the first
 * sign-in link its owner follows verifies it. Nothing is audited, as a first sign-in is not (audit
 * rows belong to organisations). Throws 400 `validation_failed` for a string that is no e-mail.
 */
export async function accountForEmail(
  auth: Pick<Auth, '$context'>,
  email: string,
): Promise<AccountForEmail> {
  const normalised = email.trim().toLowerCase()
  // The same check as the sign-in endpoint's body schema (better-auth's magic link: z.email()).
  if (!z.email().safeParse(normalised).success)
    throw new AppError('validation_failed', `${email} is not an e-mail address.`)
  const { internalAdapter } = await auth.$context
  const found = await internalAdapter.findUserByEmail(normalised)
  if (found) return { id: found.user.id, email: found.user.email, created: false }
  const user = await internalAdapter.createUser(
    { email: normalised, emailVerified: false, name: '' },
    { method: 'magic-link' },
  )
  return { id: user.id, email: user.email, created: true }
}
