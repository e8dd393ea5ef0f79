import { ADMIN_SEARCH_DEBOUNCE_MS } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = ADMIN_SEARCH_DEBOUNCE_MS;

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A lazy RTK Query trigger: its promise can be aborted. */
type Trigger<A> = (arg: A) => { abort: () => void };

/**
 * Keyset paging of one list: the cursors of the pages before this one (for Previous), the current
 * page's cursor, and a fetch per change of filters or page that aborts the one it supersedes.
 * `filters` is a stable key of everything but the cursor: a new key starts again at page one.
 */
export function usePagedList<A>(trigger: Trigger<A>, filters: string, argsFor: (after?: string) => A) {
  const [trail, setTrail] = useState<{ filters: string; cursors: string[] }>({ filters, cursors: [] });
  const [reloads, setReloads] = useState(0);
  const cursors = trail.filters === filters ? trail.cursors : [];
  const after = cursors.at(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: argsFor is rebuilt each render; filters and after are its inputs.
  useEffect(() => {
    const request = trigger(argsFor(after));
    return () => request.abort();
  }, [trigger, filters, after, reloads]);
  return {
    /** 1 for the first page. */
    pageNumber: cursors.length + 1,
    next: (cursor: string) => setTrail({ filters, cursors: [...cursors, cursor] }),
    previous: () => setTrail({ filters, cursors: cursors.slice(0, -1) }),
    /** Fetch this page again (after a change the admin made). */
    reload: useCallback(() => setReloads((n) => n + 1), []),
  };
}

/**
 * The whole match's count of a paged list: the server sends it with the first page only (null on
 * the others), so it is kept for the same `filters` while the admin pages on.
 */
export function useMatchCount(filters: string, total: number | null | undefined): number | undefined {
  const [kept, setKept] = useState<{ filters: string; total: number }>();
  useEffect(() => {
    if (total !== null && total !== undefined) setKept({ filters, total });
  }, [filters, total]);
  if (total !== null && total !== undefined) return total;
  return kept?.filters === filters ? kept.total : undefined;
}
