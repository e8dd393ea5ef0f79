import { ADMIN_TOKEN_POLL_ATTEMPTS, ADMIN_TOKEN_POLL_INTERVAL_MS, ERRORS } from '@vitalwatch/shared';
import { ApiError } from './api-error.ts';
import { getAccessToken } from './token-storage.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Admin calls may start while a fresh login is still writing its tokens, so they look for the
 * access token a few times (3 attempts, 100 ms apart) before failing.
 */
export async function waitForAccessToken(
  attempts: number = ADMIN_TOKEN_POLL_ATTEMPTS,
  intervalMs: number = ADMIN_TOKEN_POLL_INTERVAL_MS,
): Promise<string> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const token = getAccessToken();
    if (token) return token;
    if (attempt < attempts) await sleep(intervalMs);
  }
  throw new ApiError(0, 'NO_TOKEN', ERRORS.adminNoToken);
}
