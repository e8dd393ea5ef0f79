import type { AlertLifecycle } from '@vitalwatch/shared';
import { ALERTS_PAGE_MAX_LIMIT, ALERTS_PAGE_SIZE, type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { type AlertQuery, getAlertsPage } from '../api/get-alerts-page.ts';
import { markAlertsRead } from '../api/mark-alerts-read.ts';
import { countNew, markedRead, mergeNewest, withLifecycle } from '../utils/merge-alerts.ts';
import { collectUnreadIds, inChunks } from '../utils/unread-ids.ts';

export interface AlertsHistoryState {
  status: 'loading' | 'error' | 'ready';
  error: string | null;
  alerts: AlertRecord[];
  nextCursor: string | null;
  /** All alerts matching the filters, and how many of them are unread (server counts, kept current). */
  total: number;
  unreadCount: number;
}

const LOADING: AlertsHistoryState = {
  status: 'loading',
  error: null,
  alerts: [],
  nextCursor: null,
  total: 0,
  unreadCount: 0,
};

const matches = (alert: AlertRecord, q: AlertQuery) => {
  const t = Date.parse(alert.createdAt);
  return (
    (!q.deviceId || alert.device === q.deviceId) &&
    (!q.from || t >= Date.parse(q.from)) &&
    (!q.to || t <= Date.parse(q.to))
  );
};

/**
 * Alerts History: pages of 10 newest first, 'Load More', marking read (applied after the server
 * agrees; read ones are never sent again), 'Mark all as read' over every matching alert, live
 * alerts on top and, whenever the socket (re)connects, the ones it may have missed.
 */
export function useAlertsHistory({ deviceId, from, to, sort }: AlertQuery) {
  const [state, setState] = useState<AlertsHistoryState>(LOADING);
  const [loadingMore, setLoadingMore] = useState(false);
  const [markingAll, setMarkingAll] = useState(false);
  const [attempt, setAttempt] = useState(0);
  /** Bumped on every new query, so answers for an older one are dropped. */
  const generation = useRef(0);
  const query: AlertQuery = { deviceId, from, to, sort };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks for a new fetch (retry).
  useEffect(() => {
    const controller = new AbortController();
    generation.current += 1;
    setState(LOADING);
    getAlertsPage({ deviceId, from, to, sort, limit: ALERTS_PAGE_SIZE }, controller.signal).then(
      (page) => setState({ status: 'ready', error: null, ...page }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          ...LOADING,
          status: 'error',
          error: errorMessage(error, ERRORS.alertsFetchFailed, ERRORS.unexpected),
        });
      },
    );
    return () => controller.abort();
  }, [deviceId, from, to, sort, attempt]);

  const addAlerts = (incoming: readonly AlertRecord[]) => {
    const matching = incoming.filter((a) => matches(a, query));
    setState((s) => {
      if (s.status !== 'ready' || matching.length === 0) return s;
      const { added, unread } = countNew(s.alerts, matching);
      return {
        ...s,
        alerts: mergeNewest(s.alerts, matching, sort === 'priority'),
        total: s.total + added,
        unreadCount: s.unreadCount + unread,
      };
    });
  };

  const loadMore = async () => {
    if (state.status !== 'ready' || !state.nextCursor || loadingMore) return;
    const started = generation.current;
    setLoadingMore(true);
    try {
      const page = await getAlertsPage({ ...query, cursor: state.nextCursor, limit: ALERTS_PAGE_SIZE });
      if (started !== generation.current) return;
      setState((s) => {
        const known = new Set(s.alerts.map((a) => a._id));
        return { ...s, ...page, alerts: [...s.alerts, ...page.alerts.filter((a) => !known.has(a._id))] };
      });
    } catch (error) {
      toast.error(errorMessage(error, ERRORS.alertsFetchFailed, ERRORS.unexpected));
    } finally {
      setLoadingMore(false);
    }
  };

  const applyRead = (ids: ReadonlySet<string>) => {
    setState((s) => {
      const wasUnread = s.alerts.filter((a) => ids.has(a._id) && !a.isRead).length;
      return { ...s, alerts: markedRead(s.alerts, ids), unreadCount: Math.max(0, s.unreadCount - wasUnread) };
    });
  };

  const markRead = async (alert: AlertRecord) => {
    if (alert.isRead) return;
    try {
      await markAlertsRead([alert._id]);
      applyRead(new Set([alert._id]));
    } catch (error) {
      toast.error(errorMessage(error, ERRORS.markReadFailed, ERRORS.unexpected));
    }
  };

  const markAllRead = async () => {
    if (markingAll) return;
    setMarkingAll(true);
    try {
      const ids = await collectUnreadIds(query);
      for (const a of state.alerts) if (!a.isRead) ids.add(a._id);
      for (const chunk of inChunks([...ids])) await markAlertsRead(chunk);
      setState((s) => ({
        ...s,
        alerts: markedRead(s.alerts, ids),
        unreadCount: Math.max(0, s.unreadCount - ids.size),
      }));
    } catch (error) {
      toast.error(errorMessage(error, ERRORS.markReadFailed, ERRORS.unexpected));
    } finally {
      setMarkingAll(false);
    }
  };

  /** Someone acknowledged or resolved an alert (this user, from the answer; others, live). */
  const applyLifecycle = useCallback((update: AlertLifecycle) => {
    setState((s) => ({ ...s, alerts: withLifecycle(s.alerts, update) }));
  }, []);

  useRealtimeEvent('alerts', addAlerts);
  useRealtimeEvent('lifecycle', applyLifecycle);
  useRealtimeEvent('connected', () => {
    const newest = state.alerts[0];
    if (state.status !== 'ready' || !newest) {
      setAttempt((n) => n + 1);
      return;
    }
    const since = from && Date.parse(from) > Date.parse(newest.createdAt) ? from : newest.createdAt;
    getAlertsPage({ ...query, from: since, limit: ALERTS_PAGE_MAX_LIMIT }).then(
      (page) => addAlerts(page.alerts),
      (error: unknown) => console.warn('Catching up on alerts failed', error),
    );
  });

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, loadingMore, markingAll, loadMore, markRead, markAllRead, applyLifecycle, retry };
}
