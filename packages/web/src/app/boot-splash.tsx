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

/** Whether the page began on a static loading screen that no route guard has taken over yet. */
let loadingSincePageStart = false;

/**
 * Notes, before the app first renders into `root`, whether the page has shown a loading screen
 * since its first paint (index.html's, or an area's static first screen).
 */
export function noteStaticLoadingScreen(root: Element): void {
  loadingSincePageStart = root.firstElementChild !== null;
}

/**
 * How long a full-screen loading screen has already been on screen when a route guard mounts: the
 * first guard of a page that began on one continues it (`performance.now()` counts from the
 * navigation's start), so its ~50 ms spinner is not shown again after seconds of loading; every
 * later guard starts from nothing.
 */
export function takeLoadingScreenTime(): number {
  const shown = loadingSincePageStart ? performance.now() : 0;
  loadingSincePageStart = false;
  return shown;
}
