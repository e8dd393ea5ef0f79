import { act, render, screen } from '@testing-library/react';
import { BOARD_SPARK_BUCKETS, type BoardSnapshotWire, SOCKET_EVENTS } from '@vitalwatch/shared';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store.ts';
import { useBoard } from '@/features/board/hooks/use-board.ts';
import { connectRealtime, disconnectRealtime } from '@/lib/socket.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { makeAlert, mockApi, ok, user } from './dashboard-fixtures.tsx';
import { lastSocket } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));

afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const { device: _d, deviceName: _n, alertMessage: _m, ...alert } = makeAlert({ _id: 'a1', priority: 'high' });

/** A snapshot taken `msAgo` before now, with alert a1 still open on device d1 (as it was then). */
const olderSnapshot = (msAgo: number, heartRate: number): BoardSnapshotWire => ({
  at: new Date(Date.now() - msAgo).toISOString(),
  teams: [],
  devices: [
    {
      _id: 'd1',
      deviceName: 'Wristband',
      latest: {
        spo2: 97,
        heartRate,
        temperature: 98.2,
        battery: 80,
        createdAt: new Date(Date.now() - msAgo - 1000).toISOString(),
      },
      sparkline: new Array(BOARD_SPARK_BUCKETS).fill(null),
      alerts: [alert],
    },
  ],
});

function BoardProbe() {
  const { data } = useBoard();
  const d = data?.devices[0];
  return (
    <>
      <output data-testid="alerts">
        {d ? d.alerts.map((a) => `${a._id}:${a.status}`).join(',') || 'none' : ''}
      </output>
      <output data-testid="rate">{d?.latest?.heartRate ?? ''}</output>
    </>
  );
}

/** The board replays what it received live onto every snapshot, so none takes it back (issue 25). */
describe('the board snapshot and its live changes', () => {
  it('keeps an alert resolved and a reading received live when an older snapshot arrives after them', async () => {
    let answer: (body: unknown) => void = () => {};
    const calls = mockApi({
      '/board/snapshot': () => new Promise((resolve) => (answer = resolve)),
    });
    const store = makeStore();
    store.dispatch(loggedIn(user));
    connectRealtime(user._id);
    act(() => lastSocket().fire('connect'));
    render(
      <Provider store={store}>
        <BoardProbe />
      </Provider>,
    );
    await vi.waitFor(() => expect(calls.some((c) => c.path.startsWith('/board/snapshot'))).toBe(true));

    // While the snapshot is on its way: the alert is resolved, and a newer reading comes in.
    act(() => {
      lastSocket().fire(SOCKET_EVENTS.alertLifecycleUpdate, {
        _id: 'a1',
        device: 'd1',
        priority: 'high',
        status: 'resolved',
        acknowledged: null,
        resolved: { at: new Date().toISOString(), by: 'u2', note: null },
      });
      lastSocket().fire(SOCKET_EVENTS.boardUpdate, [
        {
          _id: 'r9',
          device: 'd1',
          spo2: 96,
          heartRate: 88,
          temperature: 98.4,
          battery: 79,
          createdAt: new Date().toISOString(),
        },
      ]);
    });
    await act(async () => answer(ok(olderSnapshot(2000, 70))));

    expect(await screen.findByText('none')).toBeTruthy();
    expect(screen.getByTestId('rate').textContent).toBe('88');
  });

  it('asks, on every (re)connection of the socket, for a snapshot built after it', async () => {
    const calls = mockApi({ '/board/snapshot': () => ok(olderSnapshot(0, 70)) });
    const store = makeStore();
    store.dispatch(loggedIn(user));
    connectRealtime(user._id);
    act(() => lastSocket().fire('connect'));
    render(
      <Provider store={store}>
        <BoardProbe />
      </Provider>,
    );
    expect(await screen.findByText('a1:active')).toBeTruthy();
    act(() => lastSocket().fire('disconnect'));
    const reconnected = Date.now();
    act(() => lastSocket().fire('connect'));
    await vi.waitFor(() => expect(calls.filter((c) => c.path.startsWith('/board/snapshot'))).toHaveLength(2));
    const after = new URL(calls.at(-1)!.path, 'http://x').searchParams.get('after');
    expect(Date.parse(after ?? '')).toBeGreaterThanOrEqual(reconnected);
  });
});
