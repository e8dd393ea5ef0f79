/**
 * Whether a database error is the database being busy or out of reach for a moment, not a fault of
 * the request or of the code: a caller told 503 with Retry-After sends it again and it can succeed.
 * Nothing was stored (the transaction rolled back), so a device's retry loses and doubles nothing.
 */

/** SQLSTATEs of a moment's trouble (PostgreSQL, appendix A). */
const TRANSIENT_STATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
  '55P03', // lock_not_available
  '57014', // query_canceled: the statement time-out
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);

/** What the client library (node-postgres and its pool) and the socket say when no answer comes. */
const TRANSIENT_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /Query read timeout/i,
];
const TRANSIENT_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/** The error and what it wraps (drizzle puts the driver's error in `cause`), outermost first. */
function* chain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    yield current as { code?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

export function isTransientDbError(error: unknown): boolean {
  for (const e of chain(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (TRANSIENT_STATES.has(code) || code.startsWith('08') || TRANSIENT_SOCKET_CODES.has(code)) return true;
    if (typeof e.message === 'string' && TRANSIENT_MESSAGES.some((m) => m.test(e.message as string)))
      return true;
  }
  return false;
}
