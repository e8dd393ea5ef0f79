/** Milliseconds a `Retry-After` header asks to wait (delta-seconds or an HTTP date), if it says anything. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter before attempt `attempt + 1`: half fixed, half random, capped. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** A failure of the network rather than of the request: worth another try. */
export function isTransientNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.message === 'Socket timeout') return true;
  const code = (err as NodeJS.ErrnoException).code;
  return (
    typeof code === 'string' &&
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'EAI_AGAIN',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ENETUNREACH',
    ].includes(code)
  );
}
