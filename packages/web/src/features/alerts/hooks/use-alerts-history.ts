import { ALERTS_PAGE_MAX_LIMIT, type AlertRecord, ERRORS } from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { alertsHistoryApi, useAlertsHistoryInfiniteQuery } from '../api/get-alerts-history.ts';
import { type AlertQuery, fetchAlertsPage } from '../api/get-alerts-page.ts';
import { useMarkAllAlertsReadMutation } from '../api/mark-alerts-read.ts';
import {
  addToHistory,
  type HistoryPages,
  historyView,
  lifecycleInHistory,
  matchesQuery,
} from '../utils/history-pages.ts';
import { toastMarkReadFailed, useMarkRead } from './use-mark-read.ts';

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

const failed = (error: unknown) =>
  errorMessage(asApiError(error), ERRORS.alertsFetchFailed, ERRORS.unexpected);

/**
 * Alerts History (`alertsHistory` in the store): pages of 10 newest first, 'Load More', marking
 * read (applied after the server agrees; read ones are never sent again), 'Mark all as read' over
 * every matching alert, live alerts on top and, whenever the socket (re)connects, the ones it may
 * have missed.
 */
export function useAlertsHistory(query: AlertQuery) {
  const dispatch = useAppDispatch();
  const history = useAlertsHistoryInfiniteQuery(query);
  const [markAllAlertsRead, { isLoading: markingAll }] = useMarkAllAlertsReadMutation();
  const data = history.currentData;
  const state: AlertsHistoryState = data
    ? { status: 'ready', error: null, ...historyView(data) }
    : history.isError
      ? { ...LOADING, status: 'error', error: failed(history.error) }
      : LOADING;

  const update = (change: (pages: HistoryPages) => void) =>
    dispatch(alertsHistoryApi.util.updateQueryData('alertsHistory', query, change));
  const addAlerts = (incoming: readonly AlertRecord[]) => {
    const matching = incoming.filter((a) => matchesQuery(a, query));
    if (matching.length > 0) update((pages) => addToHistory(pages, matching, query.sort === 'priority'));
    return matching.length > 0;
  };
  const afterLiveChange = useWhenConnected(history.isFetching, () => {
    const newest = state.alerts[0];
    if (state.status !== 'ready' || !newest) {
      void history.refetch();
      return;
    }
    const { from } = query;
    const since = from && Date.parse(from) > Date.parse(newest.createdAt) ? from : newest.createdAt;
    dispatch(fetchAlertsPage({ ...query, from: since, limit: ALERTS_PAGE_MAX_LIMIT }))
      .unwrap()
      .then(
        (page) => addAlerts(page.alerts),
        (error: unknown) => console.warn('Catching up on alerts failed', error),
      );
  });
  useRealtimeEvent('alerts', (incoming) => {
    if (addAlerts(incoming)) afterLiveChange();
  });
  useRealtimeEvent('lifecycle', (change) => {
    update((pages) => lifecycleInHistory(pages, change));
    afterLiveChange();
  });

  const loadMore = async () => {
    if (state.status !== 'ready' || !state.nextCursor || history.isFetchingNextPage) return;
    try {
      await history.fetchNextPage().unwrap();
    } catch (error) {
      toast.error(failed(error));
    }
  };

  const markRead = useMarkRead();

  /** Resolves whether the server recorded it. */
  const markAllRead = async (): Promise<boolean> => {
    if (markingAll) return false;
    const shownUnread = state.alerts.filter((a) => !a.isRead).map((a) => a._id);
    try {
      await markAllAlertsRead({ query, shownUnread }).unwrap();
      return true;
    } catch (caught) {
      toastMarkReadFailed(caught, 'not-recorded-read-all', markAllRead);
      return false;
    }
  };

  return {
    state,
    loadingMore: history.isFetchingNextPage,
    markingAll,
    loadMore,
    markRead,
    markAllRead,
    retry: () => void history.refetch(),
  };
}
