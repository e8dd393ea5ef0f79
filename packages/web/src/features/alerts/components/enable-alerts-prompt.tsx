import { useState } from 'react';
import { Button } from '@/components/button.tsx';
import { BellIcon } from '@/components/icons.tsx';
import { useBrowserAlerts } from '@/lib/use-browser-alerts.ts';

/** Set once the prompt was answered or dismissed: it is shown once per browser. */
export const PROMPT_DISMISSED_KEY = 'vw-alerts-prompt-dismissed';

const dismissedBefore = () => {
  try {
    return localStorage.getItem(PROMPT_DISMISSED_KEY) === '1';
  } catch {
    return true;
  }
};

/**
 * A one-time, dismissible offer to get alerts on this browser when VitalWatch is closed. Shown
 * only while the browser has not been asked yet; Profile → Connected Browsers keeps the control.
 * The caller places it (a page's width and margins).
 */
export function EnableAlertsPrompt({ userId }: { userId: string | null }) {
  const { permission, enable, busy } = useBrowserAlerts(userId);
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (dismissed || permission !== 'default') return null;
  const close = () => {
    try {
      localStorage.setItem(PROMPT_DISMISSED_KEY, '1');
    } catch {
      // Storage unavailable: hidden for this visit only.
    }
    setDismissed(true);
  };
  return (
    <section
      aria-label="Alerts on this browser"
      className="flex flex-row items-center justify-between gap-3 rounded-2xl border border-teal-200 bg-teal-50 px-4 py-3 dark:border-teal-900 dark:bg-teal-950/40 compact:gap-2 compact:px-2 compact:py-1.5"
    >
      {/* On a phone the offer is one row (the button says it). */}
      <p className="flex items-start gap-2 text-sm text-teal-900 dark:text-teal-100 compact:sr-only">
        <BellIcon className="mt-0.5 size-4 shrink-0" />
        Get alerts on this browser even when VitalWatch is closed.
      </p>
      <div className="flex min-w-0 shrink-0 flex-wrap gap-2 compact:flex-1 compact:flex-nowrap compact:justify-between compact:gap-1 compact:whitespace-nowrap">
        <Button
          size="sm"
          className="compact:px-2"
          disabled={busy}
          onClick={() => {
            close();
            void enable();
          }}
        >
          Enable alerts on this browser
        </Button>
        <Button size="sm" variant="ghost" onClick={close} className="compact:px-2">
          Not now
        </Button>
      </div>
    </section>
  );
}
