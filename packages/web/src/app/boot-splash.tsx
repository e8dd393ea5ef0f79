import { Spinner } from '@/components/spinner.tsx';

/**
 * The router's `HydrateFallback`: while the first route's lazy code loads it keeps index.html's
 * loading screen in place, the same markup, so the page neither goes blank nor changes.
 */
export function BootSplash() {
  return (
    <div className="boot-splash" role="status">
      <Spinner className="size-10" />
      <span className="text-sm">Loading VitalWatch…</span>
    </div>
  );
}
