import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERRORS } from '@vitalwatch/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { healthFailure } from '@/features/health/hooks/use-health-data.ts';
import { ApiError, failureKind, notRecorded } from '@/lib/api-error.ts';
import { formatAge } from '@/lib/format-date.ts';
import { disconnectRealtime } from '@/lib/socket.ts';
import { json, makeAlert, makeDevice, makeRecord, mockApi, ok } from './dashboard-fixtures.tsx';
import { ago, apiWith, renderDashboard } from './dashboard-harness.tsx';
import { lastSocket } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));
vi.mock('@/features/health/components/trends-chart.tsx', () => ({
  TrendsChart: () => <div data-testid="chart" />,
}));

afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const DEVICE_HINT = 'Please ensure your device is connected and transmitting data.';
const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));

describe('formatAge', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const before = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  it('counts seconds, then minutes and seconds, hours and minutes, days and hours', () => {
    expect(formatAge(before(0), now)).toBe('0 s');
    expect(formatAge(before(45), now)).toBe('45 s');
    expect(formatAge(before(60), now)).toBe('1 min');
    expect(formatAge(before(125), now)).toBe('2 min 5 s');
    expect(formatAge(before(3 * 3600 + 12 * 60 + 9), now)).toBe('3 h 12 min');
    expect(formatAge(before(2 * 86_400 + 4 * 3600), now)).toBe('2 d 4 h');
    expect(formatAge(new Date(now.getTime() + 5000), now)).toBe('0 s');
  });
});

describe('what failed', () => {
  const network = new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection.');
  const serverDown = new ApiError(503, 'HTTP_ERROR', 'Request failed with status 503');
  const refused = new ApiError(409, 'CONFLICT', 'Already resolved', 'Already resolved');

  it('tells no answer from an error answer from a refusal; only the first two were not recorded', () => {
    expect([network, serverDown, refused].map(failureKind)).toEqual(['unreachable', 'server', 'refused']);
    expect([network, serverDown, refused].map(notRecorded)).toEqual([true, true, false]);
    expect(notRecorded(new ApiError(429, 'RATE_LIMITED', 'slow down'))).toBe(true);
  });

  it('a failed health load names the server, beside the spec text', () => {
    expect(healthFailure(network)).toEqual({
      what: 'The server could not be reached.',
      message: ERRORS.unexpected,
    });
    expect(healthFailure(serverDown)).toEqual({
      what: 'The server answered with an error (503).',
      message: ERRORS.healthFetchFailed,
    });
    expect(healthFailure(new ApiError(404, 'HTTP_ERROR', 'x'))).toEqual({
      what: 'The server answered with an error (404).',
      message: ERRORS.healthNotFound,
    });
  });
});

// A whole dashboard per test, on a machine shared with other test runs.
describe('dashboard when the server is away', { timeout: 30_000 }, () => {
  it('says it is not live and since when; the cards and Updated show their age, until the socket is back', async () => {
    apiWith({ records: [makeRecord({ heartRate: 70, createdAt: ago(20_000) })] });
    renderDashboard();
    expect(await screen.findByTestId('heartRate-value')).toHaveTextContent('70');
    const socket = lastSocket();
    act(() => socket.fire('connect'));
    expect(screen.getByTestId('updated')).toHaveTextContent('Just now');
    expect(screen.getByTestId('heartRate-status')).toHaveTextContent('Normal');
    expect(screen.queryByTestId('outage-banner')).not.toBeInTheDocument();

    act(() => socket.fire('disconnect', 'transport close'));
    expect(screen.getByTestId('outage-banner')).toHaveTextContent(
      /^Not live: alerts paused since \d\d:\d\d (AM|PM) — reconnecting/,
    );
    expect(screen.getByTestId('updated')).toHaveTextContent(/^\d\d:\d\d:\d\d (AM|PM) \(2\d s ago\)$/);
    expect(screen.getByTestId('heartRate-status')).toHaveTextContent('Not live · was Normal');
    expect(screen.getByTestId('not-live-notice')).toHaveTextContent(/this reading is from .*, 2\d s old/);

    act(() => socket.fire('connect'));
    expect(screen.queryByTestId('outage-banner')).not.toBeInTheDocument();
    expect(screen.getByTestId('updated')).toHaveTextContent('Just now');
    expect(screen.getByTestId('heartRate-status')).toHaveTextContent('Normal');
  });

  it('a failed health load says the server could not be reached, or answered with an error, not to check the device', async () => {
    let answer: () => unknown = unreachable;
    mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice()] }),
      '/health/fetch/': () => answer(),
      '/health/history/': () => answer(),
      '/alert/all': () => ok({ alerts: [], nextCursor: null, total: 0, unreadCount: 0 }),
      '/alert/latest/3': () => ok({ alerts: [] }),
    });
    const user = userEvent.setup();
    renderDashboard();
    expect(await screen.findByText('The server could not be reached.')).toBeInTheDocument();
    expect(screen.getByText('No health data available.')).toBeInTheDocument();
    expect(screen.getByText(ERRORS.unexpected)).toBeInTheDocument();
    expect(screen.queryByText(DEVICE_HINT)).not.toBeInTheDocument();

    answer = () => json(500, { success: false, message: 'Internal server error', code: 'INTERNAL' });
    await user.click(screen.getAllByRole('button', { name: 'Try again' })[0]!);
    expect(await screen.findByText('The server answered with an error (500).')).toBeInTheDocument();
    expect(screen.getByText('Internal server error')).toBeInTheDocument();
    expect(screen.queryByText(DEVICE_HINT)).not.toBeInTheDocument();
  });

  it('an acknowledge that never reached the server says it was not recorded, and Retry sends it again', async () => {
    const sos = makeAlert({ _id: 's1', alertType: 'SOS', alertTitle: 'SOS pressed', priority: 'high' });
    let acknowledge: () => unknown = unreachable;
    const calls = mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice()] }),
      '/health/fetch/': () => ok({ healthData: [] }),
      '/alert/all': () => ok({ alerts: [sos], nextCursor: null, total: 1, unreadCount: 1 }),
      '/alert/latest/3': () => ok({ alerts: [sos] }),
      '/alert/mark-read': () => ok({ alerts: ['s1'] }),
      '/alert/acknowledge/': () => acknowledge(),
    });
    const user = userEvent.setup();
    renderDashboard();
    const banner = await screen.findByTestId('urgent-banner');
    await user.click(await within(banner).findByRole('button', { name: /^Acknowledge/ }));
    const toast = await screen.findByTestId('not-recorded');
    expect(toast).toHaveTextContent(
      'Not recorded: Failed to acknowledge the alert. The server could not be reached.',
    );

    acknowledge = () =>
      ok({
        alert: {
          _id: 's1',
          device: 'd1',
          priority: 'high',
          status: 'acknowledged',
          acknowledged: { at: new Date().toISOString(), by: 'ada', note: null },
          resolved: null,
        },
      });
    await user.click(within(toast).getByRole('button', { name: 'Retry' }));
    // (The toast's closing is not checked here: jsdom plays no exit animation; e2e/outage.spec.ts sees it go.)
    await waitFor(() => expect(calls.filter((c) => c.path === '/alert/acknowledge/s1')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByTestId('urgent-banner')).not.toBeInTheDocument());
  });
});
