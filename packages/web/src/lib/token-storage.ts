import { STORAGE_KEYS } from '@vitalwatch/shared';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** A stored token, or null (none, empty). Plain checks, not zod: every first page reads them. */
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key) || null;
  } catch {
    // Storage can be unavailable (privacy mode, sandboxed frames): behave as signed out.
    return null;
  }
}

export const getAccessToken = (): string | null => read(STORAGE_KEYS.accessToken);
export const getRefreshToken = (): string | null => read(STORAGE_KEYS.refreshToken);

export function storeTokens({ accessToken, refreshToken }: TokenPair): void {
  window.localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
  window.localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
}

export function clearTokens(): void {
  window.localStorage.removeItem(STORAGE_KEYS.accessToken);
  window.localStorage.removeItem(STORAGE_KEYS.refreshToken);
}
