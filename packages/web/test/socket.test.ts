import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectRealtime,
  disconnectRealtime,
  getRealtimeStatus,
  onRealtime,
  SOCKET_OPTIONS,
  useRealtimeConnection,
} from '@/lib/socket.ts';
import { json, makeAlert, makeRecord } from './dashboard-fixtures.tsx';
import { lastSocket, sockets } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));

beforeEach(() => {
  sockets.length = 0;
  window.localStorage.setItem('access-token', 'token-1');
  window.localStorage.setItem('refresh-token', 'refresh-1');
});
afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('realtime socket', () => {
  it('connects with the spec reconnection settings and the stored token, and registers the user', () => {
    connectRealtime('u1');
    const socket = lastSocket();
    expect(SOCKET_OPTIONS).toEqual({
      transports: ['websocket', 'polling'],
      reconnection: true,
      reconnectionAttempts: Number.POSITIVE_INFINITY,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20_000,
    });
    expect(socket.options).toMatchObject(SOCKET_OPTIONS);
    const auth = socket.options.auth as (cb: (data: object) => void) => void;
    const seen = vi.fn();
    auth(seen);
    expect(seen).toHaveBeenCalledWith({ token: 'token-1' });
    expect(getRealtimeStatus()).toBe('connecting');
    socket.fire('connect');
    expect(socket.emit).toHaveBeenCalledWith('register-user', 'u1');
    expect(getRealtimeStatus()).toBe('connected');
  });

  it('passes on parsed events and drops malformed ones', () => {
    const alerts = vi.fn();
    const health = vi.fn();
    const offAlerts = onRealtime('alerts', alerts);
    const offHealth = onRealtime('health', health);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    connectRealtime('u1');
    const socket = lastSocket();
    const alert = makeAlert();
    const record = makeRecord();
    socket.fire('alertsUpdate', [alert]);
    socket.fire('alertsUpdate', [{ ...alert, isRead: 'no' }]);
    socket.fire('healthDataUpdate', record);
    socket.fire('healthDataUpdate', { device: 'd1' });
    expect(alerts).toHaveBeenCalledTimes(1);
    expect(alerts).toHaveBeenCalledWith([alert]);
    expect(health).toHaveBeenCalledTimes(1);
    expect(health).toHaveBeenCalledWith(record);
    expect(warn).toHaveBeenCalledTimes(2);
    offAlerts();
    offHealth();
    socket.fire('alertsUpdate', [alert]);
    expect(alerts).toHaveBeenCalledTimes(1);
  });

  it('signals on every connect, the first included, so pages catch up on what the socket missed', () => {
    const connected = vi.fn();
    const off = onRealtime('connected', connected);
    connectRealtime('u1');
    const socket = lastSocket();
    expect(connected).not.toHaveBeenCalled();
    socket.fire('connect');
    expect(connected).toHaveBeenCalledTimes(1);
    socket.fire('disconnect', 'transport close');
    expect(getRealtimeStatus()).toBe('reconnecting');
    expect(connected).toHaveBeenCalledTimes(1);
    socket.fire('connect');
    expect(connected).toHaveBeenCalledTimes(2);
    off();
  });

  it('gets a fresh token and tries again when the handshake is refused', async () => {
    const fetchMock = vi.fn(async () =>
      json(200, {
        success: true,
        message: 'Tokens refreshed',
        data: { accessToken: 'token-2', refreshToken: 'r2' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    connectRealtime('u1');
    const socket = lastSocket();
    (socket.options.auth as (cb: (d: object) => void) => void)(() => {});
    socket.active = false;
    socket.fire('connect_error', new Error('Invalid or expired token'));
    await vi.waitFor(() => expect(socket.connect).toHaveBeenCalled(), { timeout: 3000 });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/user/refresh',
      expect.objectContaining({ method: 'POST' }),
    );
    expect(window.localStorage.getItem('access-token')).toBe('token-2');
  });

  it('leaves reconnecting to Socket.IO for network errors', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    connectRealtime('u1');
    const socket = lastSocket();
    socket.fire('connect_error', new Error('xhr poll error'));
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(socket.connect).not.toHaveBeenCalled();
  });

  it('opens while a user is signed in and closes on sign-out', () => {
    const { rerender, unmount } = renderHook(({ id }: { id: string | null }) => useRealtimeConnection(id), {
      initialProps: { id: 'u1' as string | null },
    });
    const socket = lastSocket();
    expect(sockets).toHaveLength(1);
    rerender({ id: null });
    expect(socket.disconnect).toHaveBeenCalled();
    expect(getRealtimeStatus()).toBe('offline');
    rerender({ id: 'u2' });
    expect(sockets).toHaveLength(2);
    unmount();
    expect(lastSocket().disconnect).toHaveBeenCalled();
  });
});
