import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Footer } from './footer.tsx';
import { Header } from './header/header.tsx';

/** New pages start at the top, except section links (#features…), which the landing page scrolls to. */
function useScrollToTopOnNavigate() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect must run on every change of page.
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
}

/** The shared layout: skip link, header, page, footer. */
export function AppLayout() {
  useScrollToTopOnNavigate();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-teal-700 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Header />
      {/* At least a screen tall (less the 4rem header): the footer starts below the fold, so it
          does not jump down when a lazily loaded page arrives (Lighthouse: CLS 0.50 → 0 on /). */}
      <main id="main" className="flex min-h-[calc(100vh-4rem)] flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
