import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentAlertsCard } from '@/features/alerts/components/recent-alerts-card.tsx';
import { UrgentAlertsBanner } from '@/features/alerts/components/urgent-alerts-banner.tsx';
import { makeAlert, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const fall = makeAlert({ _id: 'f1', alertType: 'FALL', alertTitle: 'Fall detected', priority: 'high' });

describe('one alert in several lists', () => {
  it('acknowledged in the banner: gone from it, and Recent Alerts says who, without another fetch', async () => {
    const calls = mockApi({
      '/alert/latest/3': () => ok({ alerts: [fall] }),
      '/alert/all': () => ok({ alerts: [fall], nextCursor: null, total: 1, unreadCount: 1 }),
      '/alert/acknowledge/': () =>
        ok({
          alert: {
            _id: 'f1',
            device: 'd1',
            priority: 'high',
            status: 'acknowledged',
            acknowledged: { at: new Date().toISOString(), by: 'ada', note: null },
            resolved: null,
          },
        }),
    });
    renderSignedIn(
      <>
        <UrgentAlertsBanner />
        <RecentAlertsCard />
      </>,
    );
    const banner = await screen.findByTestId('urgent-banner');
    await screen.findByTestId('recent-alerts');
    await userEvent
      .setup()
      .click(within(banner).getByRole('button', { name: 'Acknowledge: Fall detected on Wristband' }));
    await waitFor(() => expect(screen.queryByTestId('urgent-banner')).not.toBeInTheDocument());
    expect(within(screen.getByTestId('recent-alerts')).getByTestId('alert-lifecycle')).toHaveTextContent(
      'Acknowledged by ada',
    );
    expect(calls.filter((c) => c.path === '/alert/latest/3')).toHaveLength(1);
  });

  it('marked read in Recent Alerts only once the server agrees', async () => {
    let answer: () => unknown = () => new Response('down', { status: 503 });
    mockApi({
      '/alert/latest/3': () => ok({ alerts: [fall] }),
      '/alert/all': () => ok({ alerts: [], nextCursor: null, total: 0, unreadCount: 0 }),
      '/alert/mark-read': () => answer(),
    });
    const user = userEvent.setup();
    renderSignedIn(<RecentAlertsCard />);
    const unread = await screen.findByRole('button', { name: /^Fall detected .*Unread.*Mark as read$/ });
    await user.click(unread);
    expect(await screen.findByText('Failed to mark alerts as read')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Mark as read$/ })).toBeInTheDocument();
    answer = () => ok({ alerts: ['f1'] });
    await user.click(screen.getByRole('button', { name: /Mark as read$/ }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Mark as read$/ })).not.toBeInTheDocument(),
    );
  });
});
