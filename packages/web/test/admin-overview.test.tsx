import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminOverviewPage } from '@/features/admin/components/admin-overview-page.tsx';
import { callsTo, ok, routeFetch } from './admin-fixtures.ts';
import { jsonResponse, renderWithApp } from './render.tsx';

// Canvas is not available in jsdom: the chart gets the entries, and the e2e run draws it for real.
vi.mock('@/features/admin/components/overview/growth-chart.tsx', () => ({
  GrowthChart: (props: { entries: readonly { users: number }[] }) => (
    <div data-testid="growth-chart" data-days={props.entries.length} />
  ),
}));

const growth = [0, 2, 0, 1, 0, 0, 4].map((users, i) => ({ date: `2026-03-0${i + 2}`, users }));
const status = (overallStatus: 'operational' | 'degraded' | 'outage') => ({
  overallStatus,
  components: [
    { name: 'Database', status: 'operational', detail: 'Query answered' },
    { name: 'API Service', status: 'operational' },
    { name: 'Notification Service', status: overallStatus === 'outage' ? 'outage' : 'operational' },
    { name: 'Email Service', status: overallStatus === 'degraded' ? 'degraded' : 'operational' },
  ],
});

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const noUnreachable = { contactsWithoutChannel: 0, devicesWithoutChannel: 0, devices: [] };
const routes = (overall: 'operational' | 'degraded' | 'outage' = 'operational') => ({
  '/admin/stats': () =>
    ok({ usersCount: 1234, devicesCount: 7, alertsUnreadCount: 3, channelHealth: noUnreachable }),
  '/admin/webhooks/list': () => ok({ webhooks: [] }),
  '/admin/user-growth': () => ok(growth),
  '/admin/system-status': () => ok(status(overall)),
  '/admin/fleet-summary': () =>
    ok({ offlineOverHour: 41, lowBattery: 17, neverReported: 5, unassigned: 96, asOf: SUMMARY_AS_OF }),
});

/** When the server took the fleet counts it answers (it keeps them a short while). */
const SUMMARY_AS_OF = '2026-11-27T09:41:07.000Z';

describe('admin overview', () => {
  it('shows the three stats, user growth for the browser time zone and the system status', async () => {
    const fetch = routeFetch(routes());
    renderWithApp(<AdminOverviewPage />);
    expect(screen.getByRole('heading', { name: 'Dashboard Overview' })).toBeInTheDocument();
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.getByText('Total Users')).toBeInTheDocument();
    expect(screen.getByText('Total Devices').nextSibling).toHaveTextContent('7');
    expect(screen.getByText('Active Alerts').nextSibling).toHaveTextContent('3');
    const card = screen.getByRole('region', { name: 'User Growth' });
    expect(within(card).getByText('Last 7 Days')).toBeInTheDocument();
    expect(within(card).getByText('Total new users').nextSibling).toHaveTextContent('7');
    expect(within(card).getByText('Average daily').nextSibling).toHaveTextContent('1.0');
    // The chart's code loads lazily, after the card's figures.
    expect(await within(card).findByTestId('growth-chart')).toHaveAttribute('data-days', '7');
    expect(callsTo(fetch, '/admin/user-growth')).toEqual([
      { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    ]);
    const panel = screen.getByRole('region', { name: 'System Status' });
    expect(await within(panel).findByText('All systems operational')).toHaveAttribute(
      'data-status',
      'operational',
    );
    for (const name of ['Database', 'API Service', 'Notification Service', 'Email Service']) {
      expect(within(panel).getByText(name)).toBeInTheDocument();
    }
  });

  it('counts the devices needing attention, each a link to the filtered device list', async () => {
    routeFetch(routes());
    renderWithApp(<AdminOverviewPage />);
    const card = await screen.findByRole('region', { name: 'Devices needing attention' });
    const link = async (name: RegExp) =>
      (await within(card).findByRole('link', { name })).getAttribute('href');
    expect(await link(/Offline over 1 hour\s*41/)).toBe(
      '/admin-dashboard/devices?status=stale&sort=lastSeen&dir=asc',
    );
    expect(await link(/Battery below 20 %\s*17/)).toBe(
      '/admin-dashboard/devices?battery=low&sort=battery&dir=asc',
    );
    expect(await link(/Never reported\s*5/)).toBe('/admin-dashboard/devices?status=never');
    expect(await link(/Unassigned\s*96/)).toBe('/admin-dashboard/devices?assignment=unassigned');
    const asOf = within(card).getByText(/^as of/);
    expect(asOf.querySelector('time')).toHaveAttribute('datetime', SUMMARY_AS_OF);
    expect(asOf).toHaveTextContent(
      `as of ${new Date(SUMMARY_AS_OF).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' })}`,
    );
  });

  it.each([
    ['degraded', 'Partial system degradation', 'bg-yellow-400'],
    ['outage', 'System outage in progress', 'bg-red-500'],
  ] as const)('says %s in its words and colour', async (overall, text, dot) => {
    routeFetch(routes(overall));
    renderWithApp(<AdminOverviewPage />);
    const line = await screen.findByText(text);
    expect(line.querySelector('span')).toHaveClass(dot);
    const badges = screen.getAllByText(overall === 'degraded' ? 'Degraded' : 'Outage');
    expect(badges[0]?.closest('[data-status]')).toHaveAttribute('data-status', overall);
  });

  it('counts contacts of high-priority devices with no working channel and names the unreachable devices', async () => {
    routeFetch({
      ...routes(),
      '/admin/stats': () =>
        ok({
          usersCount: 9,
          devicesCount: 4,
          alertsUnreadCount: 0,
          channelHealth: {
            contactsWithoutChannel: 5,
            devicesWithoutChannel: 3,
            devices: [
              { _id: 'd1', deviceName: "Dad's watch" },
              { _id: 'd2', deviceName: 'Room 12' },
            ],
          },
        }),
    });
    renderWithApp(<AdminOverviewPage />);
    const card = await screen.findByRole('region', { name: 'Channel health' });
    expect(
      within(card).getByText('Contacts of high-priority devices with no working channel').nextSibling,
    ).toHaveTextContent('5');
    expect(
      within(card).getByText('Devices none of whose primary contacts can be reached').nextSibling,
    ).toHaveTextContent('3');
    const list = within(card).getByRole('list', { name: 'Devices without a reachable contact' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(["Dad's watch", 'Room 12', 'and 1 more']);
  });

  it('retries a failed card and refreshes every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let statsCalls = 0;
    const fetch = routeFetch({
      ...routes(),
      '/admin/stats': () => {
        statsCalls += 1;
        return statsCalls === 1
          ? jsonResponse(500, { success: false, message: 'boom', code: 'INTERNAL' })
          : ok({
              usersCount: statsCalls,
              devicesCount: 0,
              alertsUnreadCount: 0,
              channelHealth: noUnreachable,
            });
      },
    });
    renderWithApp(<AdminOverviewPage />);
    expect(await screen.findByText('Failed to fetch stats')).toBeInTheDocument();
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('2')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(30_000);
    await waitFor(() => expect(screen.getByText('Total Users').nextSibling).toHaveTextContent('3'));
    expect(callsTo(fetch, '/admin/system-status').length).toBeGreaterThanOrEqual(2);
  });
});
