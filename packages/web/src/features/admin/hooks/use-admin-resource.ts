import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/lib/api-error.ts';

export type ResourceState<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | {
      status: 'ready';
      data: T;
      /** Why the last background refresh failed (the data shown is the previous answer), or null. */
      refreshError: string | null;
    };

interface ResourceOptions {
  /** Fetch again this often while the page is visible; omit to fetch once. */
  refreshMs?: number;
}

/**
 * Data an admin screen loads: loading, an error with its message (server's or `fallback`) and a
 * retry, or the data, which the screen can change in place after a successful mutation. With
 * `refreshMs` it is fetched again periodically; a failed refresh keeps the last data and says so.
 */
export function useAdminResource<T>(load: () => Promise<T>, fallback: string, options: ResourceOptions = {}) {
  const { refreshMs } = options;
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how retry asks for a new fetch.
  useEffect(() => {
    let active = true;
    let latest = 0;
    const run = () => {
      const call = ++latest;
      // Only the newest call may write: a slow older answer must not replace a newer one.
      const current = () => active && call === latest;
      loadRef.current().then(
        (data) => {
          if (current()) setState({ status: 'ready', data, refreshError: null });
        },
        (error: unknown) => {
          if (!current()) return;
          const message = errorMessage(error, fallback);
          setState((s) =>
            s.status === 'ready' ? { ...s, refreshError: message } : { status: 'error', message },
          );
        },
      );
    };
    run();
    const timer =
      refreshMs === undefined
        ? undefined
        : setInterval(() => {
            if (document.visibilityState !== 'hidden') run();
          }, refreshMs);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [attempt, fallback, refreshMs]);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  /** Applies a change the server has confirmed, without fetching the list again. */
  const update = useCallback((change: (data: T) => T) => {
    setState((s) => (s.status === 'ready' ? { ...s, data: change(s.data) } : s));
  }, []);

  return { state, retry, update };
}
