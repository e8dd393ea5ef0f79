import { Outlet } from 'react-router';
import { SessionProvider } from './session-provider.tsx';
import { ThemeSync } from './theme-sync.tsx';
import { ToastArea } from './toast-area.tsx';

/** Everything every route shares: theme class, toast area and the restored session. */
export function RootLayout() {
  return (
    <>
      <ThemeSync />
      <ToastArea />
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    </>
  );
}
