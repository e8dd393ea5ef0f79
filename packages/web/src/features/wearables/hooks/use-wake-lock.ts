import { useEffect, useState } from 'react';

/**
 * Keeps the screen on while `wanted` (a phone that sleeps stops its browser, and the gateway with
 * it). The browser releases the lock when the page is hidden; it is taken again when it shows.
 */
export function useWakeLock(wanted: boolean): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!wanted || !('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let cancelled = false;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      navigator.wakeLock
        .request('screen')
        .then((lock) => {
          if (cancelled) return void lock.release();
          sentinel = lock;
          setHeld(true);
          lock.addEventListener('release', () => setHeld(false));
        })
        .catch(() => setHeld(false));
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      cancelled = true;
      document.removeEventListener('visibilitychange', take);
      void sentinel?.release();
      setHeld(false);
    };
  }, [wanted]);
  return held;
}
