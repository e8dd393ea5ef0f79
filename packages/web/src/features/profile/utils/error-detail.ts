import { ApiError } from '@/lib/api-error.ts';

/** The most specific thing the server said about a failure (a field's issue, else its message), or null. */
export function errorDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.issues[0]?.message ?? error.serverMessage;
}
