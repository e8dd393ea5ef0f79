import { useCallback } from 'react';
import { loggedOut } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { clearTokens, getRefreshToken } from '@/lib/token-storage.ts';

/**
 * Signs out: tells the server (best effort, once the requests under way have finished: see
 * `endingSession`), then clears tokens and state whatever it answered.
 * Resolves to whether the server call succeeded, so the caller can pick its message.
 */
export function useLogout(): () => Promise<boolean> {
  const dispatch = useAppDispatch();
  return useCallback(async () => {
    let serverOk = true;
    // Loaded on use: the header (on every page) carries this hook.
    const [{ teardownPush }, { logOut }, { endingSession }] = await Promise.all([
      import('@/lib/push-subscription.ts'),
      import('../api/log-out.ts'),
      import('@/lib/api-client.ts'),
    ]);
    // While still signed in: this browser stops receiving the user's alerts.
    await teardownPush().catch((error: unknown) =>
      console.warn('Could not disconnect push on sign-out', error),
    );
    try {
      await endingSession(() => logOut(getRefreshToken()));
    } catch (error) {
      serverOk = false;
      console.warn('Server logout failed; clearing the local session anyway', error);
    }
    clearTokens();
    dispatch(loggedOut());
    return serverOk;
  }, [dispatch]);
}
