import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type AlertRecord, alertTypeLabel } from '@vitalwatch/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertsHistory } from '@/features/alerts/components/alerts-history.tsx';
import { alertTone } from '@/features/alerts/utils/alert-style.ts';
import { mergeNewest } from '@/features/alerts/utils/merge-alerts.ts';
import { connectRealtime, disconnectRealtime } from '@/lib/socket.ts';
import { makeAlert, makeDevice, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';
import { lastSocket } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));

afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const devices = [
  makeDevice({ _id: 'd1', deviceName: 'Wristband' }),
  makeDevice({ _id: 'd2', deviceName: 'Ring' }),
];

/** 12 alerts, newest first, the first 5 unread; pages of `limit` by cursor = index. */
function alertStore() {
  const alerts: AlertRecord[] = Array.from({ length: 12 }, (_, i) =>
    makeAlert({
      _id: `a${i}`,
      alertTitle: `Alert ${i}`,
      createdAt: new Date(Date.UTC(2026, 2, 1, 12, 59 - i)).toISOString(),
      isRead: i >= 5,
      alertType: i === 0 ? 'FALL' : 'LOW_SPO2',
    }),
  );
  const page = (body: unknown) => {
    const {
      cursor,
      limit = 50,
      deviceId,
      from,
    } = body as {
      cursor?: string;
      limit?: number;
      deviceId?: string;
      from?: string;
    };
    const matching = alerts.filter(
      (a) => (!deviceId || a.device === deviceId) && (!from || a.createdAt >= from),
    );
    const start = cursor ? Number(cursor) : 0;
    const slice = matching.slice(start, start + limit);
    const next = start + limit < matching.length ? String(start + limit) : null;
    return ok({
      alerts: slice,
      nextCursor: next,
      total: matching.length,
      unreadCount: matching.filter((a) => !a.isRead).length,
    });
  };
  const markRead = (body: unknown) => {
    const ids = (body as { data: { alerts: string[] } }).data.alerts;
    for (const a of alerts) if (ids.includes(a._id)) a.isRead = true;
    return ok({ alerts: ids });
  };
  return { alerts, routes: { '/alert/all': page, '/alert/mark-read': markRead } };
}

const items = () => within(screen.getByTestId('alerts-list')).getAllByRole('listitem');

describe('Alerts History', () => {
  it('lists 10 newest first, loads 10 more, then says it reached the end', async () => {
    const { routes } = alertStore();
    const calls = mockApi(routes);
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    expect(await screen.findByText('12 Alerts Found')).toBeInTheDocument();
    expect(screen.getByText('Sorted by: Most recent')).toBeInTheDocument();
    expect(screen.getByTestId('unread-count')).toHaveTextContent('5');
    expect(items()).toHaveLength(10);
    expect(items()[0]).toHaveTextContent('Alert 0');
    expect(calls[0]!.body).toEqual({ limit: 10 });
    await user.click(screen.getByRole('button', { name: 'Load More Alerts' }));
    await waitFor(() => expect(items()).toHaveLength(12));
    expect(calls[1]!.body).toEqual({ cursor: '10', limit: 10 });
    expect(screen.getByText("You've reached the end")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More Alerts' })).not.toBeInTheDocument();
  });

  it('marks an unread alert read on click, once; read alerts are not buttons', async () => {
    const { routes } = alertStore();
    const calls = mockApi(routes);
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    const button = await screen.findByRole('button', { name: /^Alert 1 .*Unread.*Mark as read$/ });
    // The name reads the whole alert: message, device and when, not only its title.
    expect(button).toHaveAccessibleName(
      /^Alert 1 Low SpO2 Medium priority Unread Heart rate 130 BPM is above 100 BPM Wristband · .+ ago Mark as read$/,
    );
    await user.click(button);
    await waitFor(() => expect(screen.getByTestId('unread-count')).toHaveTextContent('4'));
    // Focus stays on the alert (now plain text) rather than falling to <body>.
    expect(document.activeElement).toHaveTextContent(/^Alert 1/);
    expect(document.activeElement).not.toBe(document.body);
    expect(calls.filter((c) => c.path === '/alert/mark-read').map((c) => c.body)).toEqual([
      { data: { alerts: ['a1'] } },
    ]);
    expect(
      screen.queryByRole('button', { name: /^Alert 1 .*Unread.*Mark as read$/ }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Alert 7/ })).not.toBeInTheDocument();
  });

  it("toasts 'Failed to mark alerts as read' and keeps the alert unread when the call fails", async () => {
    const { routes } = alertStore();
    mockApi({ ...routes, '/alert/mark-read': () => new Response('oops', { status: 500 }) });
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await user.click(await screen.findByRole('button', { name: /^Alert 2 .*Unread.*Mark as read$/ }));
    expect(await screen.findByText('Failed to mark alerts as read')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Alert 2 .*Unread.*Mark as read$/ })).toBeInTheDocument();
    expect(screen.getByTestId('unread-count')).toHaveTextContent('5');
  });

  it('marks all matching alerts read, including ones not loaded yet', async () => {
    const { alerts, routes } = alertStore();
    const calls = mockApi(routes);
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByTestId('unread-count')).toHaveTextContent('0'));
    expect(alerts.every((a) => a.isRead)).toBe(true);
    expect(
      calls.find((c) => c.path === '/alert/all' && (c.body as { limit: number }).limit === 500),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Mark as read$/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it("'Mark all as read' that never reached the server says it was not recorded; Retry sends it again", async () => {
    const { alerts, routes } = alertStore();
    let reachable = false;
    mockApi({
      ...routes,
      '/alert/mark-read': (body) => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return routes['/alert/mark-read'](body);
      },
    });
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    const toast = await screen.findByTestId('not-recorded');
    expect(toast).toHaveTextContent(
      'Not recorded: Failed to mark alerts as read. The server could not be reached.',
    );
    expect(screen.getByTestId('unread-count')).toHaveTextContent('5');
    reachable = true;
    await user.click(within(toast).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('unread-count')).toHaveTextContent('0'));
    // (The toast's closing is not checked: jsdom plays no exit animation.)
    expect(alerts.every((a) => a.isRead)).toBe(true);
  });

  it('filters by device with a removable chip, and shows the empty state', async () => {
    const { routes } = alertStore();
    const calls = mockApi(routes);
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    await user.selectOptions(screen.getByLabelText('Device'), 'Ring');
    expect(await screen.findByText('No alerts found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your filters to see more results.')).toBeInTheDocument();
    expect(calls.at(-1)!.body).toEqual({ deviceId: 'd2', limit: 10 });
    await user.click(screen.getByRole('button', { name: 'Remove filter Device: Ring' }));
    expect(await screen.findByText('12 Alerts Found')).toBeInTheDocument();
    expect(screen.getByLabelText('Device')).toHaveValue('');
  });

  it('puts live alerts that match the filters on top', async () => {
    const { routes } = alertStore();
    mockApi(routes);
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    connectRealtime('u1');
    const live = makeAlert({ _id: 'live', alertTitle: 'SOS pressed', alertType: 'SOS' });
    act(() => lastSocket().fire('alertsUpdate', [live, makeAlert({ _id: 'a0' })]));
    expect(await screen.findByText('13 Alerts Found')).toBeInTheDocument();
    expect(items()[0]).toHaveTextContent('SOS pressed');
    expect(screen.getByTestId('unread-count')).toHaveTextContent('6');
  });

  it('fetches what was raised while the socket was still connecting, once it is up', async () => {
    const { alerts, routes } = alertStore();
    const calls = mockApi(routes);
    connectRealtime('u1');
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    // Raised after the page's fetch, before the socket joined its room: no alertsUpdate for it.
    const missed = makeAlert({
      _id: 'missed',
      alertTitle: 'Fall detected meanwhile',
      alertType: 'FALL',
      createdAt: new Date(Date.UTC(2026, 2, 1, 13, 0)).toISOString(),
    });
    alerts.unshift(missed);
    const before = calls.length;
    act(() => lastSocket().fire('connect'));
    await waitFor(() => expect(items()[0]).toHaveTextContent('Fall detected meanwhile'));
    expect(calls.slice(before).map((c) => c.path)).toEqual(['/alert/all']);
    expect(screen.getByText('13 Alerts Found')).toBeInTheDocument();
  });
});

describe('a live alert during a fetch', () => {
  it('is not lost when a fetch that read the list before it answers after it', async () => {
    const stored: AlertRecord[] = [];
    let hold: Promise<void> | null = null;
    const calls = mockApi({
      '/alert/all': async () => {
        // What the server has when the request arrives, answered once the test lets it go.
        const answer = ok({
          alerts: [...stored],
          nextCursor: null,
          total: stored.length,
          unreadCount: stored.length,
        });
        if (hold) await hold;
        return answer;
      },
    });
    connectRealtime('u1');
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('0 Alerts Found');
    let release = () => {};
    hold = new Promise((resolve) => {
      release = resolve;
    });
    // The socket comes up: the page fetches what it may have missed, and that fetch is held.
    act(() => lastSocket().fire('connect'));
    await waitFor(() => expect(calls.filter((c) => c.path.startsWith('/alert/all'))).toHaveLength(2));
    // Stored and announced while that fetch is on its way back without it.
    const fall = makeAlert({ _id: 'fall', alertTitle: 'Fall detected', alertType: 'FALL' });
    stored.push(fall);
    act(() => lastSocket().fire('alertsUpdate', [fall]));
    expect(await screen.findByText('1 Alerts Found')).toBeInTheDocument();
    hold = null;
    act(() => release());
    // The late answer replaces the list, and a fetch after it brings the alert back.
    await waitFor(() => expect(calls.filter((c) => c.path.startsWith('/alert/all'))).toHaveLength(3));
    await waitFor(() => expect(items()[0]).toHaveTextContent('Fall detected'));
    expect(screen.getByText('1 Alerts Found')).toBeInTheDocument();
  });
});

describe('alert lifecycle in Alerts History', () => {
  it('acknowledges and marks a FALL handled; shows who did it; applies a live change by another carer', async () => {
    const { routes } = alertStore();
    const acted = (status: 'acknowledged' | 'resolved') => (_body: unknown, path: string) => {
      const id = path.split('/').pop()!;
      const at = new Date().toISOString();
      return ok({
        alert: {
          _id: id,
          device: 'd1',
          priority: 'high',
          status,
          acknowledged: { at, by: 'ann', note: null },
          resolved: status === 'resolved' ? { at, by: 'ann', note: null } : null,
        },
      });
    };
    const calls = mockApi({
      ...routes,
      '/alert/acknowledge/': acted('acknowledged'),
      '/alert/resolve/': acted('resolved'),
    });
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    const fall = items()[0]!;
    expect(fall).toHaveTextContent('Medium priority');
    await user.click(within(fall).getByRole('button', { name: 'Acknowledge: Alert 0 on Wristband' }));
    await waitFor(() =>
      expect(within(items()[0]!).getByTestId('alert-lifecycle')).toHaveTextContent(
        'Acknowledged by ann just now',
      ),
    );
    // Acknowledged, and so read by whoever acknowledged it.
    const paths = calls.map((c) => c.path);
    expect(paths).toContain('/alert/acknowledge/a0');
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/alert/mark-read'));
    expect(within(items()[0]!).queryByRole('button', { name: /^Acknowledge/ })).toBeNull();
    await user.click(within(items()[0]!).getByRole('button', { name: 'Mark handled: Alert 0 on Wristband' }));
    await waitFor(() =>
      expect(within(items()[0]!).getByTestId('alert-lifecycle')).toHaveTextContent('Handled by ann just now'),
    );

    // Another carer acknowledged a vital alert: it changes here too, live.
    connectRealtime('u1');
    act(() =>
      lastSocket().fire('alertLifecycleUpdate', {
        _id: 'a1',
        device: 'd1',
        priority: 'medium',
        status: 'acknowledged',
        acknowledged: { at: new Date().toISOString(), by: 'bob', note: null },
        resolved: null,
      }),
    );
    await waitFor(() =>
      expect(within(items()[1]!).getByTestId('alert-lifecycle')).toHaveTextContent('Acknowledged by bob'),
    );
  });
});

describe('sort by priority', () => {
  it('asks the server for the priority order and says so; back to most recent', async () => {
    const { routes } = alertStore();
    const calls = mockApi(routes);
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    await user.click(screen.getByRole('button', { name: 'Sort by priority' }));
    expect(screen.getByText('Sorted by: Priority')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/alert/all').at(-1)?.body).toMatchObject({ sort: 'priority' }),
    );
    await user.click(screen.getByRole('button', { name: 'Sort by most recent' }));
    expect(screen.getByText('Sorted by: Most recent')).toBeInTheDocument();
  });
});

describe('snooze for me', () => {
  it('is offered on vital alerts, never on FALL or SOS, and snoozes that device and type', async () => {
    const { routes } = alertStore();
    const calls = mockApi({
      ...routes,
      '/alert/snooze': (body) =>
        ok({
          snooze: {
            ...(body as object),
            device: 'd1',
            deviceName: 'Wristband',
            until: new Date(Date.now() + 30 * 60_000).toISOString(),
          },
        }),
    });
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    expect(within(items()[0]!).queryByRole('combobox', { name: /Snooze/ })).toBeNull();
    const snooze = within(items()[1]!).getByRole('combobox', {
      name: 'Snooze Low SpO2 alerts from Wristband for me',
    });
    await user.selectOptions(snooze, '30');
    expect(calls.find((c) => c.path === '/alert/snooze')?.body).toEqual({
      deviceId: 'd1',
      alertType: 'LOW_SPO2',
      minutes: 30,
    });
    expect(
      await screen.findByText(/Low SpO2 alerts from Wristband snoozed for you until/),
    ).toBeInTheDocument();
  });
});

describe('alert timeline', () => {
  it('Details shows who was notified, how, whether it arrived, and who acted', async () => {
    const { routes } = alertStore();
    const at = (m: number) => new Date(Date.UTC(2026, 2, 1, 13, m)).toISOString();
    const entry = (id: string, m: number, rest: object) => ({
      id,
      at: at(m),
      by: null,
      channel: null,
      ok: null,
      detail: null,
      ...rest,
    });
    mockApi({
      ...routes,
      '/alert/timeline/': () =>
        ok({
          timeline: [
            entry('raised', 0, { kind: 'raised', detail: 'Fall detected (high priority)' }),
            entry('event-1', 0, { kind: 'notified', by: 'ann', channel: 'push', ok: true }),
            entry('event-2', 0, {
              kind: 'notified',
              by: 'bob',
              channel: 'email',
              ok: false,
              detail: 'mailbox full',
            }),
            entry('event-4', 1, { kind: 'shown', by: 'ann', channel: 'push' }),
            entry('event-5', 1, { kind: 'opened', by: 'ann', channel: 'push' }),
            entry('event-3', 2, { kind: 'escalated', detail: 'Step 1: not acknowledged, sent again' }),
            entry('acknowledged', 3, { kind: 'acknowledged', by: 'ann', detail: 'On my way' }),
          ],
        }),
    });
    const user = userEvent.setup();
    renderSignedIn(<AlertsHistory devices={devices} />, '/dashboard/alerts');
    await screen.findByText('12 Alerts Found');
    const details = within(items()[0]!).getByRole('button', { name: 'Details' });
    await user.click(details);
    expect(details).toHaveAttribute('aria-expanded', 'true');
    const lines = within(await screen.findByTestId('alert-timeline')).getAllByRole('listitem');
    expect(lines.map((l) => l.textContent?.replace(/^.*?(AM|PM)\s/, ''))).toEqual([
      'Raised: Fall detected (high priority)',
      'push notification sent to ann',
      'e-mail to bob failed: mailbox full',
      'push notification shown on a device of ann',
      'push notification opened by ann',
      'Escalated: Step 1: not acknowledged, sent again',
      'Acknowledged by ann: “On my way”',
    ]);
  });
});

describe('alert type colours (spec 9)', () => {
  it('FALL and SOS red, BATTERY blue, others yellow', () => {
    expect(alertTone('FALL')).toBe('red');
    expect(alertTone('SOS')).toBe('red');
    expect(alertTone('BATTERY')).toBe('blue');
    expect(alertTone('LOW_SPO2')).toBe('yellow');
    expect(alertTone('DEVICE_OFFLINE')).toBe('yellow');
    expect(alertTypeLabel('HIGH_HEART_RATE')).toBe('High Heart Rate');
    expect(alertTypeLabel('LOW_SPO2')).toBe('Low SpO2');
  });
});

describe('merging live alerts', () => {
  it('orders what is new to a carer by arrival: a late SOS lands above a newer FALL', () => {
    const fall = makeAlert({
      _id: 'fall',
      alertType: 'FALL',
      createdAt: '2026-01-01T10:09:00.000Z',
      receivedAt: '2026-01-01T10:09:01.000Z',
    });
    const sos = makeAlert({
      _id: 'sos',
      alertType: 'SOS',
      createdAt: '2026-01-01T10:00:00.000Z',
      receivedAt: '2026-01-01T10:10:00.000Z',
    });
    expect(mergeNewest([fall], [sos], false, 'receivedAt').map((a) => a._id)).toEqual(['sos', 'fall']);
    expect(mergeNewest([fall], [sos]).map((a) => a._id)).toEqual(['fall', 'sos']);
  });
});
