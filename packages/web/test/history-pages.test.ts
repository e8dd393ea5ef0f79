import { describe, expect, it } from 'vitest';
import type { AlertsPage } from '@/features/alerts/api/get-alerts-page.ts';
import {
  addToHistory,
  type HistoryPages,
  historyView,
  lifecycleInHistory,
  readInHistory,
  sameQuery,
} from '@/features/alerts/utils/history-pages.ts';
import { makeAlert } from './dashboard-fixtures.tsx';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();

/** Two loaded pages of Alerts History (4 of 5 alerts, 3 unread), as the store keeps them. */
function twoPages(): HistoryPages {
  const alert = (n: number, isRead: boolean) =>
    makeAlert({ _id: `a${n}`, createdAt: at(50 - n), receivedAt: at(50 - n), isRead });
  const page = (alerts: AlertsPage['alerts'], nextCursor: string | null): AlertsPage => ({
    alerts,
    nextCursor,
    total: 5,
    unreadCount: 3,
  });
  return {
    pages: [page([alert(0, false), alert(1, false)], 'c1'), page([alert(2, false), alert(3, true)], 'c2')],
    pageParams: [null, 'c1'],
  };
}

describe('Alerts History pages in the store', () => {
  it('shows every loaded alert once, with the cursor and counts of the newest page', () => {
    const data = twoPages();
    data.pages[1]!.alerts.unshift(data.pages[0]!.alerts[1]!);
    const view = historyView(data);
    expect(view.alerts.map((a) => a._id)).toEqual(['a0', 'a1', 'a2', 'a3']);
    expect(view).toMatchObject({ nextCursor: 'c2', total: 5, unreadCount: 3 });
  });

  it('puts new alerts on top, counts only the new ones and keeps the cursor for Load More', () => {
    const data = twoPages();
    const live = makeAlert({ _id: 'live', createdAt: at(59), isRead: false });
    addToHistory(data, [live, makeAlert({ _id: 'a2', createdAt: at(48) })], false);
    const view = historyView(data);
    expect(view.alerts.map((a) => a._id)).toEqual(['live', 'a0', 'a1', 'a2', 'a3']);
    expect(view).toMatchObject({ nextCursor: 'c2', total: 6, unreadCount: 4 });
    addToHistory(data, [live], false);
    expect(historyView(data).total).toBe(6);
  });

  it('marks read: by the ones shown unread, or all of them for Mark all as read', () => {
    const one = twoPages();
    readInHistory(one, new Set(['a2', 'a3']));
    expect(historyView(one).unreadCount).toBe(2);
    expect(historyView(one).alerts.find((a) => a._id === 'a2')?.isRead).toBe(true);
    const all = twoPages();
    readInHistory(all, new Set(['a0', 'a1', 'a2', 'not-loaded']), true);
    expect(historyView(all).unreadCount).toBe(0);
  });

  it('applies an acknowledgement wherever the alert is listed', () => {
    const data = twoPages();
    const acknowledged = { at: at(55), by: 'ann', note: null };
    lifecycleInHistory(data, {
      _id: 'a2',
      device: 'd1',
      priority: 'high',
      status: 'acknowledged',
      acknowledged,
      resolved: null,
    });
    expect(historyView(data).alerts[2]).toMatchObject({ status: 'acknowledged', acknowledged });
  });

  it('compares filters, the default sort being most recent', () => {
    expect(sameQuery({ deviceId: 'd1' }, { deviceId: 'd1', sort: 'recent' })).toBe(true);
    expect(sameQuery({ deviceId: 'd1' }, { deviceId: 'd1', sort: 'priority' })).toBe(false);
    expect(sameQuery({ from: at(0) }, {})).toBe(false);
  });
});
