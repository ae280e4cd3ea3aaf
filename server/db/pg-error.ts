/**
 * The SQLSTATE of a database error, from either driver: node-postgres puts it on the error, and drizzle wraps
 * PGlite's and pg's errors with the original as `cause`.
 */
export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A unique constraint refused the row (SQLSTATE 23505, unique_violation). */
export function isUniqueViolation(err: unknown): boolean {
  return pgErrorCode(err) === '23505';
}
