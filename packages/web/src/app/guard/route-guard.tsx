import { GUARD_SPINNER_MS, type Role } from '@vitalwatch/shared';
import { startTransition, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '@/components/spinner.tsx';
import { useCheckSession } from '@/features/auth/hooks/use-check-session.ts';
import { useRemoveAppShell } from '@/lib/app-shell.ts';
import { PATHS } from '@/lib/paths.ts';
import { keepReturnTo, returnPath } from '@/lib/return-path.ts';
import { selectIsSignedIn, selectRole } from '@/lib/store/auth-slice.ts';
import { useAppSelector, useAppStore } from '@/lib/store/hooks.ts';
import { takeLoadingScreenTime } from '../boot-splash.tsx';
import { decideGuard } from './decide.ts';

interface RouteGuardProps {
  authRequired?: boolean;
  requiredRole?: Role;
}

/**
 * Wraps a group of routes: shows a full-screen spinner for ~50 ms (counted from the page's first
 * paint when the page's own loading screen was showing until now), lets the admin area check the
 * session when nobody is signed in yet, then applies the guard rules on every render.
 */
export function RouteGuard({ authRequired = true, requiredRole = 'user' }: RouteGuardProps) {
  const status = useAppSelector(selectIsSignedIn);
  const role = useAppSelector(selectRole);
  const store = useAppStore();
  const checkSession = useCheckSession();
  const { pathname, search } = useLocation();
  const [phase, setPhase] = useState<'waiting' | 'checking' | 'ready'>('waiting');

  useEffect(() => {
    let active = true;
    const wait = Math.max(0, GUARD_SPINNER_MS - takeLoadingScreenTime());
    const timer = setTimeout(async () => {
      if (requiredRole === 'admin' && !store.getState().auth.status) {
        setPhase('checking');
        await checkSession();
      }
      // In slices (a transition), like the session's: the spinner stays until the page is drawn.
      if (active) startTransition(() => setPhase('ready'));
    }, wait);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [requiredRole, store, checkSession]);

  useRemoveAppShell(phase === 'ready');

  if (phase === 'waiting') return <FullScreenSpinner label="Loading" />;
  if (phase === 'checking') return <FullScreenSpinner label="Checking your session…" showLabel />;
  const decision = decideGuard({ authRequired, requiredRole, status, role });
  if (decision.action === 'show') return <Outlet />;
  // Signed in on a guest screen opened from a link that carries `?next=`: on to that link.
  const next = !authRequired && status ? returnPath(search) : null;
  // Signed out on a device label's claim link: sign in first, then back to Add Device with its code.
  const back =
    decision.to === PATHS.signin && new URLSearchParams(search).has('claim')
      ? keepReturnTo(pathname + search)
      : '';
  return <Navigate to={next ?? `${decision.to}${back}`} replace />;
}
