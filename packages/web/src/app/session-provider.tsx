import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FullScreenSpinner } from '../components/spinner.tsx';
import { useCheckSession } from '../features/auth/hooks/use-check-session.ts';
import { PATHS } from '../lib/paths.ts';
import { onSessionExpired } from '../lib/session-events.ts';
import { loggedOut } from '../lib/store/auth-slice.ts';
import { useAppDispatch } from '../lib/store/hooks.ts';
import { getAccessToken } from '../lib/token-storage.ts';

/**
 * Restores a stored session before anything else renders (a loading screen meanwhile), and sends
 * the user to /signin when the API client reports that the session has expired.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const checkSession = useCheckSession();
  const [restoring, setRestoring] = useState(() => getAccessToken() !== null);

  useEffect(() => {
    if (!restoring) return;
    let active = true;
    checkSession().finally(() => {
      if (active) setRestoring(false);
    });
    return () => {
      active = false;
    };
  }, [restoring, checkSession]);

  useEffect(
    () =>
      onSessionExpired(() => {
        dispatch(loggedOut());
        navigate(PATHS.signin, { replace: true });
      }),
    [dispatch, navigate],
  );

  if (restoring) return <FullScreenSpinner label="Loading your account…" showLabel />;
  return children;
}
