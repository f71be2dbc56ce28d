/**
 * Detects PostgreSQL's unique_violation (SQLSTATE 23505, PostgreSQL docs Appendix A) on an error
 * from either driver: node-postgres puts `code` on the error, Drizzle wraps it as `cause`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause]
  return candidates.some((e) => {
    const pg = e as { code?: unknown; constraint?: unknown } | null | undefined
    return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint)
  })
}
