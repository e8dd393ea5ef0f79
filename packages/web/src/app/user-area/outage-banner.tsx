import { OUTAGE_MESSAGES, STORAGE_KEYS } from '@vitalwatch/shared';
import { useEffect, useRef } from 'react';
import { WifiOffIcon } from '@/components/icons.tsx';
import { formatClock } from '@/lib/format-date.ts';
import { useRealtimeDownSince } from '@/lib/socket.ts';
import { useCssHeight } from '@/lib/use-css-height.ts';

/**
 * While live data has stopped (the server or this browser's connection is down), every page of
 * the user area says so, from when: a small "Reconnecting…" is easy to miss, and a page that still
 * looks live would let a carer believe no alert came. Sticky under the urgent alerts bar.
 */
export function OutageBanner() {
  const downSince = useRealtimeDownSince();
  const bar = useRef<HTMLElement>(null);
  useCssHeight(bar, '--outage-bar-height');
  useEffect(() => rememberDownSince(downSince), [downSince]);
  if (downSince === null) return null;
  return (
    <section
      ref={bar}
      role="alert"
      aria-label="Not live"
      data-testid="outage-banner"
      className="sticky top-[calc(4rem+var(--urgent-bar-height,0px))] z-20 border-b-4 border-amber-600 bg-amber-50 shadow-md dark:border-amber-400 dark:bg-amber-950"
    >
      <div className="mx-auto flex max-w-7xl items-start gap-2 px-4 py-2 text-amber-950 sm:px-6 sm:py-3 lg:px-8 dark:text-amber-50">
        <WifiOffIcon className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-300" />
        <div className="min-w-0 text-sm">
          <p className="font-bold">{OUTAGE_MESSAGES.notLive(formatClock(downSince))}</p>
          <p className="hidden sm:block">{OUTAGE_MESSAGES.notLiveDetail}</p>
        </div>
      </div>
    </section>
  );
}

/** For the offline page a reload may get: it says since when, as this bar does. */
function rememberDownSince(downSince: number | null): void {
  try {
    if (downSince === null) sessionStorage.removeItem(STORAGE_KEYS.notLiveSince);
    else sessionStorage.setItem(STORAGE_KEYS.notLiveSince, String(downSince));
  } catch {
    // Without storage the offline page counts from its own first attempt.
  }
}
