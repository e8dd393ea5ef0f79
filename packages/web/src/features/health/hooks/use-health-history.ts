import { HISTORY_POINTS_DEFAULT } from '@vitalwatch/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { type HistoryArgs, healthHistoryApi, useLazyHealthHistoryQuery } from '../api/get-health-history.ts';
import { withLiveReading } from '../utils/history.ts';
import { type HealthRangeId, rangeMs } from '../utils/records.ts';
import { healthError } from './use-health-data.ts';

/** The visible part of the chart after a zoom or pan, fetched at its own finer resolution. */
export interface TimeWindow {
  from: number;
  to: number;
}

const argsOf = (deviceId: string, w: TimeWindow): HistoryArgs => ({
  deviceId,
  from: new Date(w.from).toISOString(),
  to: new Date(w.to).toISOString(),
  points: HISTORY_POINTS_DEFAULT,
});

/**
 * The history of `args` (nothing while null), one request in flight: new args (a new range, a
 * reconnect's window, each step of a zoom or pan: the wheel reports every notch) cancel the
 * request of the ones they replaced, which the server would otherwise keep counting among the
 * user's three heavy reads (429 after a few quick steps); args equal in value send nothing new.
 * Sent on the next task, so args replaced at once (or React's StrictMode re-run) send nothing.
 */
function useLatestHistory(args: HistoryArgs | null) {
  const [fetchHistory, result] = useLazyHealthHistoryQuery();
  const key = args && JSON.stringify(args);
  useEffect(() => {
    if (key === null) return;
    let request: { abort: () => void } | undefined;
    const timer = setTimeout(() => {
      request = fetchHistory(JSON.parse(key) as HistoryArgs, true);
    });
    return () => {
      clearTimeout(timer);
      request?.abort();
    };
  }, [key, fetchHistory]);
  const refetch = useCallback(() => {
    if (key !== null) fetchHistory(JSON.parse(key) as HistoryArgs);
  }, [key, fetchHistory]);
  return { ...result, refetch };
}

/**
 * The chart's history of one device (none while `range` is still being chosen): the chosen range ending now, at the resolution the server
 * picks for the point budget; when zoomed in, the visible window fetched again finer. Live
 * readings extend the range's current bucket and its averages in the cache; a reconnect (or a new
 * range) asks for the window again, ending at that moment.
 */
export function useHealthHistory(
  deviceId: string,
  range: HealthRangeId | null,
  custom: TimeWindow | null = null,
) {
  const dispatch = useAppDispatch();
  const [window, setWindow] = useState<{ key: string; w: TimeWindow } | null>(null);
  const [view, setView] = useState<TimeWindow | null>(null);
  const fixed = range === 'custom';
  const key = `${deviceId}:${range}:${custom?.from}:${custom?.to}`;
  const current = useMemo(() => {
    if (window?.key === key) return window.w;
    if (fixed) return custom ?? { from: 0, to: 1 };
    const to = Date.now();
    return { from: to - rangeMs(range ?? 'day'), to };
  }, [window, key, range, fixed, custom]);
  if (window?.key !== key) {
    setWindow({ key, w: current });
    setView(null);
  }
  const args = argsOf(deviceId, current);
  const skip = range === null || (fixed && custom === null);
  const full = useLatestHistory(skip ? null : args);
  const zoomed = useLatestHistory(skip || view === null ? null : argsOf(deviceId, view));

  useRealtimeEvent('health', (record) => {
    if (record.device !== deviceId || skip) return;
    dispatch(
      healthHistoryApi.util.updateQueryData('healthHistory', args, (h) => withLiveReading(h, record, !fixed)),
    );
  });
  useRealtimeEvent('connected', () => {
    if (skip) return;
    if (fixed) {
      full.refetch();
      return;
    }
    const to = Date.now();
    setWindow({ key, w: { from: to - rangeMs(range ?? 'day'), to } });
  });

  const resetView = useCallback(() => setView(null), []);
  const shown = view && zoomed.data ? zoomed.data : full.data;
  return {
    /** The whole range: its summary feeds the tiles. */
    history: skip ? null : (full.data ?? null),
    /** What the chart draws: the zoomed window's finer buckets once they arrived, else the range. */
    shown: skip ? null : (shown ?? null),
    loading: range === null || (!skip && !full.data && !full.error),
    error: full.error ? healthError(asApiError(full.error)) : null,
    window: current,
    view,
    setView,
    resetView,
    retry: full.refetch,
  };
}
