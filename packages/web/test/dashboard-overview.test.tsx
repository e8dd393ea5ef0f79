import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { disconnectRealtime } from '@/lib/socket.ts';
import { json, makeAlert, makeDevice, makeRecord, mockApi, ok } from './dashboard-fixtures.tsx';
import { ago, apiWith, rawHistory, renderDashboard } from './dashboard-harness.tsx';
import { lastSocket } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));
// Canvas is not available in jsdom: the chart's options are tested on their own (health-records.test.ts).
vi.mock('@/features/health/components/trends-chart.tsx', () => ({
  TrendsChart: ({ series }: { series: { heartRate: { avg: unknown[] }; spo2: { avg: unknown[] } } }) => (
    <div data-testid="chart" data-hr={series.heartRate.avg.length} data-spo2={series.spo2.avg.length} />
  ),
}));

afterEach(() => {
  disconnectRealtime();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('user dashboard', () => {
  it("without devices shows the title and an empty state with 'Go to Devices'", async () => {
    apiWith({ devices: [] });
    const userEv = userEvent.setup();
    const { router } = renderDashboard();
    expect(screen.getByRole('heading', { name: 'Health Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Monitor your health metrics in real-time')).toBeInTheDocument();
    await userEv.click(await screen.findByRole('link', { name: 'Go to Devices' }));
    expect(router.state.location.pathname).toBe('/dashboard/devices');
  });

  it('shows the newest reading, the trends, averages, recent alerts and an online connection', async () => {
    const records = [
      makeRecord({ _id: 'r2', heartRate: 80, spo2: 96, createdAt: ago(20_000) }),
      makeRecord({ _id: 'r1', heartRate: 70, spo2: 98, createdAt: ago(120_000) }),
    ];
    const calls = apiWith({ records });
    renderDashboard();
    expect(await screen.findByTestId('heartRate-value')).toHaveTextContent('80');
    expect(screen.getByTestId('updated')).toHaveTextContent('Just now');
    expect(screen.getByRole('button', { name: /Device/ })).toHaveTextContent('Wristband');
    expect(await screen.findByTestId('chart')).toHaveAttribute('data-hr', '2');
    expect(screen.getByRole('button', { name: 'Reset Zoom' })).toBeInTheDocument();
    expect(screen.getByText('Avg. Heart Rate').nextSibling).toHaveTextContent('75 BPM');
    expect(screen.getByText('Avg. SpO2').nextSibling).toHaveTextContent('97 %');
    expect(await screen.findByText('Third')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View All Alerts' })).toHaveAttribute(
      'href',
      '/dashboard/alerts',
    );
    expect(screen.getByText('Device Connected')).toBeInTheDocument();
    // The last call is the chart's (the first asked whether anything is older than an hour).
    const range = calls.filter((c) => c.path === '/health/history/d1').at(-1);
    const { from, to, points } = range!.body as { from: string; to: string; points: number };
    // Readings of the last two minutes only: the chart opens on the last hour (issue 27), not 24 hours.
    expect(Date.parse(to) - Date.parse(from)).toBe(3600_000);
    expect(points).toBe(500);
  });

  it('puts the newest arrival on top of the urgent banner: a late SOS above a newer fall', async () => {
    const urgent = { priority: 'high', status: 'active' } as const;
    const fall = makeAlert({ _id: 'f', alertTitle: 'Fall detected', ...urgent, receivedAt: ago(60_000) });
    const sos = makeAlert({
      _id: 's',
      alertTitle: 'SOS pressed',
      ...urgent,
      createdAt: ago(600_000),
      receivedAt: ago(5_000),
    });
    mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice()] }),
      '/health/fetch/': () => ok({ healthData: [] }),
      '/health/history/': (body) => rawHistory([], body),
      '/alert/latest/3': () => ok({ alerts: [] }),
      // The history's order: device time, so the fall comes first.
      '/alert/all': () => ok({ alerts: [fall, sos], nextCursor: null, total: 2, unreadCount: 2 }),
    });
    renderDashboard();
    const banner = await screen.findByTestId('urgent-banner');
    await waitFor(() =>
      expect(
        within(banner)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([expect.stringContaining('SOS pressed'), expect.stringContaining('Fall detected')]),
    );
  });

  it("without readings says 'No health data available.' and 'Updated: Never'", async () => {
    apiWith({ records: [] });
    renderDashboard();
    expect(await screen.findByText('No health data available.')).toBeInTheDocument();
    expect(
      screen.getByText('Please ensure your device is connected and transmitting data.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('updated')).toHaveTextContent('Never');
    expect(screen.queryByText('Health Trends')).not.toBeInTheDocument();
    expect(screen.getByText('Device Offline')).toBeInTheDocument();
  });

  it('shows a failed health load as no data, with the reason and a retry', async () => {
    let fail = true;
    mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice()] }),
      '/health/fetch/': () =>
        fail
          ? json(404, { success: false, message: 'Health data not found', code: 'NOT_FOUND' })
          : ok({ healthData: [makeRecord({ heartRate: 66 })] }),
      '/alert/latest/3': () => ok({ alerts: [] }),
    });
    const userEv = userEvent.setup();
    renderDashboard();
    expect(await screen.findByText('Health data not found')).toBeInTheDocument();
    expect(screen.getByText('No health data available.')).toBeInTheDocument();
    fail = false;
    await userEv.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('heartRate-value')).toHaveTextContent('66');
  });

  it('updates cards, chart and Updated live, and puts a live alert on top with a toast', async () => {
    apiWith({ records: [makeRecord({ _id: 'r1', heartRate: 70, createdAt: ago(10 * 60_000) })] });
    renderDashboard();
    await waitFor(() => expect(screen.getByTestId('updated')).toHaveTextContent('10 minutes ago'));
    await screen.findByText('Third');
    const socket = lastSocket();
    act(() => socket.fire('connect'));
    expect(socket.emit).toHaveBeenCalledWith('register-user', 'u1');
    // The (re)connect fetched the chart's window again; live readings extend that one.
    await waitFor(() => expect(screen.getByTestId('chart')).toHaveAttribute('data-hr', '1'));
    act(() =>
      socket.fire(
        'healthDataUpdate',
        makeRecord({ _id: 'r2', heartRate: 131, createdAt: new Date().toISOString() }),
      ),
    );
    expect(screen.getByTestId('heartRate-value')).toHaveTextContent('131');
    expect(screen.getByText('Abnormal')).toBeInTheDocument();
    expect(screen.getByTestId('updated')).toHaveTextContent('Just now');
    await waitFor(() => expect(screen.getByTestId('chart')).toHaveAttribute('data-hr', '2'));
    // Another device's reading changes nothing here.
    act(() => socket.fire('healthDataUpdate', makeRecord({ _id: 'r3', device: 'd9', heartRate: 50 })));
    expect(screen.getByTestId('heartRate-value')).toHaveTextContent('131');

    act(() => socket.fire('alertsUpdate', [makeAlert({ _id: 'live', alertTitle: 'High heart rate now' })]));
    const recent = within(screen.getByTestId('recent-alerts')).getAllByRole('listitem');
    expect(recent).toHaveLength(3);
    expect(recent[0]).toHaveTextContent('High heart rate now');
    expect(await screen.findByText(/priority · Wristband: High heart rate now$/)).toBeInTheDocument();
  });

  it('catches up after a reconnect', async () => {
    const records = [makeRecord({ _id: 'r1', heartRate: 70, createdAt: ago(60_000) })];
    const calls = apiWith({ records });
    renderDashboard();
    // The chart waits for its opening range (one more call) before its own.
    await screen.findByTestId('chart', {}, { timeout: 5000 });
    const socket = lastSocket();
    act(() => socket.fire('connect'));
    records.unshift(makeRecord({ _id: 'r2', heartRate: 88, createdAt: ago(1000) }));
    const before = calls.length;
    act(() => {
      socket.fire('disconnect', 'transport close');
      socket.fire('connect');
    });
    await waitFor(() => expect(screen.getByTestId('heartRate-value')).toHaveTextContent('88'));
    const again = calls.slice(before).map((c) => c.path);
    expect(again).toEqual(
      expect.arrayContaining([
        '/device/get-device',
        '/health/fetch/d1',
        '/health/history/d1',
        '/alert/latest/3',
      ]),
    );
  });

  it("refreshes the 'Updated' wording every 60 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    apiWith({ records: [makeRecord({ createdAt: ago(30_000) })] });
    renderDashboard();
    expect(await screen.findByTestId('heartRate-value')).toBeInTheDocument();
    expect(screen.getByTestId('updated')).toHaveTextContent('Just now');
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByTestId('updated')).toHaveTextContent('1 minute ago');
  });

  it('draws a custom from–to window the user picks, refusing an end before the start', async () => {
    const records = [makeRecord({ _id: 'r1', heartRate: 70, createdAt: ago(3 * 3600_000) })];
    const calls = apiWith({ records });
    const userEv = userEvent.setup();
    renderDashboard();
    await screen.findByTestId('chart');
    await userEv.click(screen.getByLabelText('Custom'));
    expect(screen.getByText('Choose a start and an end, then Show.')).toBeInTheDocument();
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await userEv.clear(from);
    await userEv.type(from, '2026-03-02T10:00');
    await userEv.clear(to);
    await userEv.type(to, '2026-03-01T10:00');
    await userEv.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The end must be after the start');
    await userEv.clear(to);
    await userEv.type(to, '2026-03-03T10:00');
    await userEv.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/health/history/d1').at(-1)?.body).toMatchObject({
        from: new Date('2026-03-02T10:00').toISOString(),
        to: new Date('2026-03-03T10:00').toISOString(),
      }),
    );
    expect(await screen.findByText('No readings in this period.')).toBeInTheDocument();
  });

  it('switches device from the picker and fetches its data', async () => {
    const calls = apiWith({
      devices: [
        makeDevice({ _id: 'd1', deviceName: 'Wristband' }),
        makeDevice({ _id: 'd2', deviceName: 'Ring' }),
      ],
      records: [makeRecord()],
    });
    const userEv = userEvent.setup();
    renderDashboard();
    await userEv.click(await screen.findByRole('button', { name: /Device/ }));
    await userEv.click(screen.getByRole('option', { name: 'Ring' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/health/fetch/d2')).toBe(true));
    expect(screen.getByRole('button', { name: /Device/ })).toHaveTextContent('Ring');
  });
});
