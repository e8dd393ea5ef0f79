import { type ReactNode, startTransition, useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FullScreenSpinner } from '@/components/spinner.tsx';
import { ServerUnreachable } from '@/components/status-panels.tsx';
import { useCheckSession } from '@/features/auth/hooks/use-check-session.ts';
import { useRemoveAppShell } from '@/lib/app-shell.ts';
import { PATHS } from '@/lib/paths.ts';
import { onSessionExpired } from '@/lib/session-events.ts';
import { loggedOut } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { getAccessToken } from '@/lib/token-storage.ts';

/** While the server cannot be reached at start, it is asked again this often (and when the browser comes online). */
export const SESSION_RETRY_MS = 5_000;

type Phase = 'restoring' | 'unreachable' | 'ready';

/**
 * Restores a stored session before anything else renders (a loading screen meanwhile), and sends
 * the user to /signin when the API client reports that the session has expired. A server that
 * cannot be reached is not a sign-out: the tokens are kept and a "cannot reach" screen retries.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const checkSession = useCheckSession();
  const [phase, setPhase] = useState<Phase>(() => (getAccessToken() !== null ? 'restoring' : 'ready'));
  const retry = useCallback(() => setPhase('restoring'), []);

  useEffect(() => {
    if (phase !== 'restoring') return;
    let active = true;
    void checkSession().then((result) => {
      // A transition: React draws the whole signed-in area in slices, leaving the phone's main
      // thread free between them, while the loading screen stays up.
      if (active) startTransition(() => setPhase(result === 'unreachable' ? 'unreachable' : 'ready'));
    });
    return () => {
      active = false;
    };
  }, [phase, checkSession]);

  useEffect(() => {
    if (phase !== 'unreachable') return;
    const timer = setTimeout(retry, SESSION_RETRY_MS);
    window.addEventListener('online', retry);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [phase, retry]);

  useEffect(
    () =>
      onSessionExpired(() => {
        dispatch(loggedOut());
        navigate(PATHS.signin, { replace: true });
      }),
    [dispatch, navigate],
  );

  useRemoveAppShell(phase === 'unreachable');

  if (phase === 'restoring') return <FullScreenSpinner label="Loading your account…" showLabel />;
  if (phase === 'unreachable') return <ServerUnreachable onRetry={retry} />;
  return children;
}
