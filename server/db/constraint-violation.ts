/**
 * Detects PostgreSQL constraint violations on an error from either driver (node-postgres and
 * PGlite put `code` and `constraint` on the error, Drizzle wraps it as `cause`). SQLSTATEs from
 * PostgreSQL docs Appendix A: 23505 unique_violation, 23503 foreign_key_violation, 42501
 * insufficient_privilege (also raised for a row a policy's WITH CHECK refuses), 22021
 * character_not_in_repertoire and 22P05 untranslatable_character (text PostgreSQL cannot hold).
 */
function isViolation(error: unknown, sqlState: string, constraint?: string): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause]
  return candidates.some((e) => {
    const pg = e as { code?: unknown; constraint?: unknown } | null | undefined
    return pg?.code === sqlState && (constraint === undefined || pg.constraint === constraint)
  })
}

/** Whether `error` is a unique_violation (23505), of `constraint` when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return isViolation(error, '23505', constraint)
}

/** Whether `error` is a foreign_key_violation (23503), of `constraint` when given. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return isViolation(error, '23503', constraint)
}

/**
 * Whether `error` is a row refused by a row-level security policy (42501 with PostgreSQL's
 * "violates row-level security policy" message), as opposed to a missing grant (42501 too).
 * Services always write their own organisation, so in practice this is an app-scoped principal
 * writing outside its app (decision 0048).
 */
export function isRowSecurityViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause]
  return candidates.some((e) => {
    const pg = e as { code?: unknown; message?: unknown } | null | undefined
    return (
      pg?.code === '42501' &&
      typeof pg.message === 'string' &&
      pg.message.includes('row-level security policy')
    )
  })
}

/**
 * Whether `error` is text the database cannot hold or compare: a NUL character in a text
 * parameter (22021) or a `\u0000` in JSON (22P05). The input's fault: answered as a 400.
 */
export function isUnstorableText(error: unknown): boolean {
  return isViolation(error, '22021') || isViolation(error, '22P05')
}

/**
 * Whether `error` is a data exception (SQLSTATE class 22: a value the database refuses, such as
 * 22P02 invalid_text_representation for JSON with an unpaired surrogate), as opposed to a lost
 * connection, a conflict or a bug in the statement: the fault of the values written, so writing
 * them again fails again.
 */
export function isDataException(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause]
  return candidates.some((e) => {
    const code = (e as { code?: unknown } | null | undefined)?.code
    return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)
  })
}
