import type { AlertLifecycle, AlertRecord } from '@vitalwatch/shared';
import type { AppDispatch, RootState } from '@/lib/store/hooks.ts';
import { type HistoryPages, lifecycleInHistory, readInHistory, sameQuery } from '../utils/history-pages.ts';
import { markedRead, withLifecycle } from '../utils/merge-alerts.ts';
import { alertsHistoryApi } from './get-alerts-history.ts';
import type { AlertQuery } from './get-alerts-page.ts';
import { latestAlertsApi } from './get-latest-alerts.ts';
import { refreshUnreadCount } from './get-unread-count.ts';
import { isUrgent, urgentAlertsApi } from './get-urgent-alerts.ts';

type Thunk = (dispatch: AppDispatch, getState: () => RootState) => void;

/**
 * Alerts are cached three ways (Recent Alerts, the urgent banner, Alerts History per filter): a
 * change the server confirmed reaches every copy the store holds.
 */
const everyCopy =
  (change: {
    latest: (alerts: AlertRecord[]) => AlertRecord[];
    urgent: (alerts: AlertRecord[]) => AlertRecord[];
    history: (query: AlertQuery) => (pages: HistoryPages) => void;
  }): Thunk =>
  (dispatch, getState) => {
    const state = getState();
    for (const count of latestAlertsApi.util.selectCachedArgsForQuery(state, 'latestAlerts'))
      dispatch(latestAlertsApi.util.updateQueryData('latestAlerts', count, change.latest));
    dispatch(urgentAlertsApi.util.updateQueryData('urgentAlerts', undefined, change.urgent));
    for (const query of alertsHistoryApi.util.selectCachedArgsForQuery(state, 'alertsHistory'))
      dispatch(alertsHistoryApi.util.updateQueryData('alertsHistory', query, change.history(query)));
  };

/**
 * These alerts are read now. `allOf`: they are every unread alert matching these filters (Mark all
 * as read), so that list has none left.
 */
export const alertsRead =
  (ids: ReadonlySet<string>, allOf?: AlertQuery): Thunk =>
  (dispatch, getState) => {
    everyCopy({
      latest: (alerts) => markedRead(alerts, ids),
      urgent: (alerts) => markedRead(alerts, ids),
      history: (query) => (pages) =>
        readInHistory(pages, ids, allOf !== undefined && sameQuery(query, allOf)),
    })(dispatch, getState);
    void dispatch(refreshUnreadCount());
  };

/** An alert was acknowledged or resolved (by this user, or another carer): it changes everywhere. */
export const lifecycleChanged = (update: AlertLifecycle): Thunk =>
  everyCopy({
    latest: (alerts) => withLifecycle(alerts, update),
    urgent: (alerts) =>
      isUrgent(update) ? withLifecycle(alerts, update) : alerts.filter((a) => a._id !== update._id),
    history: () => (pages) => lifecycleInHistory(pages, update),
  });
