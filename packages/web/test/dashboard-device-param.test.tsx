import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OverviewPage } from '@/app/user-area/overview-page.tsx';
import { disconnectRealtime } from '@/lib/socket.ts';
import { makeDevice, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));
vi.mock('@/features/health/components/trends-chart.tsx', () => ({ TrendsChart: () => null }));

afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
});

const devices = [
  makeDevice({ _id: 'd1', deviceName: 'Wristband' }),
  makeDevice({ _id: 'd2', deviceName: 'Ring' }),
];

function serve() {
  return mockApi({
    '/device/get-device': () => ok({ devices }),
    '/health/fetch/': () => ok({ healthData: [] }),
    '/alert/latest/3': () => ok({ alerts: [] }),
    '/alert/all': () => ok({ alerts: [], nextCursor: null, total: 0, unreadCount: 0 }),
  });
}

describe('the dashboard device in the address (an alert links to its wearer)', () => {
  it('shows the device named by ?device=, and a choice in the picker goes into the address', async () => {
    const calls = serve();
    const { router } = renderSignedIn(<OverviewPage />, '/dashboard?device=d2');
    await waitFor(() => expect(screen.getByRole('button', { name: /Device/ })).toHaveTextContent('Ring'));
    expect(calls.some((c) => c.path === '/health/fetch/d2')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: /Device/ }));
    await userEvent.click(screen.getByRole('option', { name: /Wristband/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?device=d1'));
  });

  it('an unknown id shows the first device', async () => {
    serve();
    renderSignedIn(<OverviewPage />, '/dashboard?device=gone');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Device/ })).toHaveTextContent('Wristband'),
    );
  });
});
