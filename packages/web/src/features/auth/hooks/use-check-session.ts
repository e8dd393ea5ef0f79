import type { PublicUser } from '@vitalwatch/shared';
import { useCallback } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { loggedIn } from '../../../lib/store/auth-slice.ts';
import { useAppDispatch } from '../../../lib/store/hooks.ts';
import { getAccessToken } from '../../../lib/token-storage.ts';
import { getProfile } from '../api/get-profile.ts';

let inFlight: Promise<PublicUser | null> | null = null;

/** The user the stored tokens belong to, or null. Concurrent callers share one request. */
function sessionUser(): Promise<PublicUser | null> {
  if (!getAccessToken()) return Promise.resolve(null);
  inFlight ??= getProfile()
    .catch((error: unknown) => {
      // A refused session is normal (the client already cleared it); anything else is worth a note.
      if (!(error instanceof ApiError && error.status === 401)) console.warn('Session check failed', error);
      return null;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** Checks the stored session with GET /user/profile and signs the user in when it is valid. */
export function useCheckSession(): () => Promise<void> {
  const dispatch = useAppDispatch();
  return useCallback(async () => {
    const user = await sessionUser();
    if (user) dispatch(loggedIn(user));
  }, [dispatch]);
}
