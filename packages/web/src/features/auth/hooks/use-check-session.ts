import type { PublicUser } from '@vitalwatch/shared';
import { useCallback } from 'react';
import { ApiError } from '@/lib/api-error.ts';
import { type SentRequest, sendEarly } from '@/lib/api-send.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { getAccessToken } from '@/lib/token-storage.ts';

/**
 * What the stored session turned out to be: a user, none (no tokens, or the server refused them),
 * or unknown because the server could not be reached or failed: the tokens are kept then.
 */
export type SessionCheck = 'signed-in' | 'signed-out' | 'unreachable';

type SessionUser = PublicUser | 'unreachable' | null;

let inFlight: Promise<SessionUser> | null = null;
/** A check started before anything asked for it (primeSessionCheck), kept for the first caller. */
let primed: Promise<SessionUser> | null = null;

/**
 * Starts the session check at once, for the first page's guard to pick up: a signed-in reload then
 * asks for its profile while the route's code, the API client and zod download, not after them.
 */
export function primeSessionCheck(): void {
  const token = getAccessToken();
  if (token) primed = sessionUser(sendEarly('/user/profile', token));
}

/**
 * The user the stored tokens belong to, null, or 'unreachable'. Concurrent callers share one
 * request. The API client (and zod with it) loads only when there is a session to check: a
 * visitor's first page needs neither.
 */
function sessionUser(sent?: SentRequest): Promise<SessionUser> {
  if (primed) {
    const started = primed;
    primed = null;
    return started;
  }
  if (!getAccessToken()) return Promise.resolve(null);
  inFlight ??= import('../api/get-profile.ts')
    .then(({ getProfile }) => getProfile(sent))
    .catch((error: unknown) => {
      // A refused session is normal (the client already cleared it).
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return null;
      console.warn('Session check failed', error);
      return 'unreachable' as const;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** Checks the stored session with GET /user/profile and signs the user in when it is valid. */
export function useCheckSession(): () => Promise<SessionCheck> {
  const dispatch = useAppDispatch();
  return useCallback(async () => {
    const user = await sessionUser();
    if (user === 'unreachable') return 'unreachable';
    if (!user) return 'signed-out';
    dispatch(loggedIn(user));
    return 'signed-in';
  }, [dispatch]);
}
