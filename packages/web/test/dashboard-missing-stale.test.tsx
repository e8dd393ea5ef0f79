import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { disconnectRealtime } from '@/lib/socket.ts';
import { makeRecord } from './dashboard-fixtures.tsx';
import { ago, apiWith, renderDashboard } from './dashboard-harness.tsx';
import { lastSocket } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));
vi.mock('@/features/health/components/trends-chart.tsx', () => ({
  TrendsChart: () => <div data-testid="chart" />,
}));

afterEach(() => {
  disconnectRealtime();
  window.localStorage.clear();
});

const tile = (label: string) => screen.getByText(label).parentElement!;
const batteryOnly = (over: Parameters<typeof makeRecord>[0]) =>
  makeRecord({ spo2: null, heartRate: null, temperature: null, battery: 64, ...over });

describe('dashboard: missing values', () => {
  it('a battery-only reading says No reading, and the averages leave it out', async () => {
    apiWith({
      records: [
        batteryOnly({ _id: 'r2', createdAt: ago(20_000) }),
        makeRecord({ _id: 'r1', heartRate: 70, spo2: 98, createdAt: ago(120_000) }),
      ],
    });
    renderDashboard();
    expect(await screen.findByTestId('heartRate-value')).toHaveTextContent('0');
    expect(screen.getByTestId('spo2-status')).toHaveTextContent('No reading');
    expect(screen.getByTestId('heartRate-status')).toHaveTextContent('No reading');
    expect(screen.queryByText('Abnormal')).toBeNull();
    await waitFor(() => expect(tile('Avg. Heart Rate')).toHaveTextContent('70 BPM'));
    expect(tile('Avg. SpO2')).toHaveTextContent('98 %');

    // A live battery-only reading does not pull the averages towards 0 either.
    const socket = lastSocket();
    act(() => socket.fire('connect'));
    await waitFor(() => expect(screen.getByTestId('chart')).toBeInTheDocument());
    act(() => socket.fire('healthDataUpdate', batteryOnly({ _id: 'r3', battery: 63 })));
    expect(screen.getByTestId('battery-value')).toHaveTextContent('63');
    expect(tile('Avg. Heart Rate')).toHaveTextContent('70 BPM');
  });

  it('with no heart rate in the period the average shows 0 and says there was none', async () => {
    apiWith({ records: [batteryOnly({ createdAt: ago(20_000) })] });
    renderDashboard();
    await waitFor(() =>
      expect(tile('Avg. Heart Rate')).toHaveTextContent('0 BPMNo heart-rate readings in this period'),
    );
    expect(tile('Avg. SpO2')).toHaveTextContent('0 %No SpO2 readings in this period');
  });
});

describe('dashboard: stale data', () => {
  it('says "Connected · no new readings", not a green Live, until a fresh reading comes', async () => {
    apiWith({ records: [makeRecord({ _id: 'r1', spo2: 94, battery: 11, createdAt: ago(45 * 60_000) })] });
    renderDashboard();
    expect(await screen.findByTestId('spo2-status')).toHaveTextContent('Stale · was Abnormal');
    expect(screen.getByTestId('battery-status')).toHaveTextContent('Stale · was Low Battery');
    const socket = lastSocket();
    act(() => socket.fire('connect'));
    const live = screen.getByText(/Live|Connected/, { selector: '[role="status"]' });
    expect(live).toHaveTextContent('Connected · no new readings');

    act(() =>
      socket.fire('healthDataUpdate', makeRecord({ _id: 'r2', createdAt: new Date().toISOString() })),
    );
    expect(live).toHaveTextContent(/^Live$/);
    expect(screen.getByTestId('spo2-status')).toHaveTextContent(/^Normal$/);
  });
});
