/** PostgreSQL's SQLSTATE of a driver error, wherever drizzle wrapped it (the `cause` chain). */
export function sqlState(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (
    let e: unknown = err;
    e && typeof e === 'object' && !seen.has(e);
    e = (e as { cause?: unknown }).cause
  ) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique index refused the row: two writers raced for one name or code. */
export const isUniqueViolation = (err: unknown): boolean => sqlState(err) === '23505';
