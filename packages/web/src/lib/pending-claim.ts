import { PATHS } from './paths.ts';

/**
 * A device label's claim link (`/claim/<activation code>`) opened while signed out: the code waits
 * here (this tab only) while the person signs in or up; the route guard then sends them to Add
 * Device with it filled in instead of their home, until Add Device closes.
 */
const KEY = 'pending-claim';

export const claimPath = (code: string): string => `${PATHS.devices}?${new URLSearchParams({ claim: code })}`;

export function rememberClaim(code: string): void {
  sessionStorage.setItem(KEY, code);
}

/** Add Device with the waiting code, or null when none waits. */
export function pendingClaimPath(): string | null {
  const code = sessionStorage.getItem(KEY);
  return code ? claimPath(code) : null;
}

export function clearClaim(): void {
  sessionStorage.removeItem(KEY);
}
