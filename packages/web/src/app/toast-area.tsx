import { TOAST_AUTOCLOSE_APP_MS, TOAST_AUTOCLOSE_AUTH_MS } from '@vitalwatch/shared';
import { useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { PATHS } from '@/lib/paths.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { selectPageTheme } from '@/lib/store/theme-slice.ts';

const AUTH_AREA: ReadonlySet<string> = new Set([PATHS.signin, PATHS.signup]);

/**
 * One toast area, top-right, that never unmounts (so a toast survives the redirect after login).
 * Toasts raised in the sign-in/sign-up area close after 5 s, elsewhere after 3 s; they pause on
 * hover and focus loss, and Alt+T (react-toastify's default hotkey) moves focus to them.
 */
export function ToastArea() {
  const { pathname } = useLocation();
  const theme = useAppSelector(selectPageTheme);
  return (
    <ToastContainer
      position="top-right"
      autoClose={AUTH_AREA.has(pathname) ? TOAST_AUTOCLOSE_AUTH_MS : TOAST_AUTOCLOSE_APP_MS}
      pauseOnHover
      pauseOnFocusLoss
      newestOnTop
      theme={theme}
    />
  );
}
