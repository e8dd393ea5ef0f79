import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BoardDevice, CircleMember, Team } from '@vitalwatch/shared';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamsPage } from '@/features/admin/components/teams/teams-page.tsx';
import { BoardTile } from '@/features/board/components/board-tile.tsx';
import { ChannelHealthLine } from '@/features/devices/components/channel-health-line.tsx';
import { ProfilePage } from '@/features/profile/components/profile-page.tsx';
import { adminDevice, adminUser, callsTo, ok, routeFetch } from './admin-fixtures.ts';
import { mockApi, renderSignedIn, user as sampleUser } from './dashboard-fixtures.tsx';
import { jsonResponse, renderWithApp } from './render.tsx';

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const browser = {
  _id: 'p1',
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
  pushService: 'fcm.googleapis.com',
  createdAt: new Date(Date.now() - 5 * 86_400_000).toISOString(),
  lastSuccessAt: null,
  lastReceiptAt: new Date(Date.now() - 4 * 86_400_000).toISOString(),
  notReceivingSince: new Date(Date.now() - 3_600_000).toISOString(),
};

describe('channel health in Profile', () => {
  it('marks a browser not receiving and turns the daily checks off', async () => {
    const calls = mockApi({
      '/push/subscriptions': () =>
        ok({ subscriptions: [browser, { ...browser, _id: 'p2', notReceivingSince: null }] }),
      '/user/channel-checks': (body) =>
        jsonResponse(200, {
          success: true,
          message: 'Daily checks of your browsers turned off',
          data: { user: { ...sampleUser, channelChecks: (body as { enabled: boolean }).enabled } },
        }),
    });
    const user = userEvent.setup();
    const { store } = renderSignedIn(<ProfilePage />, '/dashboard/profile');
    const card = await screen.findByRole('region', { name: 'Connected Browsers' });
    expect(await within(card).findAllByText('Not receiving')).toHaveLength(1);
    expect(within(card).getAllByText(/last shown 4 days ago/)).toHaveLength(2);

    const toggle = within(card).getByRole('switch', { name: /daily check/ });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle);
    expect(await screen.findByText('Daily checks of your browsers turned off')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(store.getState().auth.loggedInUser?.channelChecks).toBe(false);
    expect(calls.find((c) => c.path === '/user/channel-checks')?.body).toEqual({ enabled: false });
  });
});

describe("a person's line in the care circle", () => {
  const member: CircleMember = {
    userId: 'u1',
    fullName: 'Ada',
    circleRole: 'carer',
    alerts: 'primary',
    since: '2026-11-01T10:00:00.000Z',
    pending: false,
    browsersNotReceiving: 0,
    workingChannel: true,
  };
  it('says nothing when all is well, counts browsers not receiving, and says when no channel works', () => {
    const { container, rerender } = render(<ChannelHealthLine member={member} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<ChannelHealthLine member={{ ...member, browsersNotReceiving: 2 }} />);
    expect(
      screen.getByText('2 browsers are not receiving alerts (daily checks unanswered)'),
    ).toBeInTheDocument();
    rerender(<ChannelHealthLine member={{ ...member, browsersNotReceiving: 1, workingChannel: false }} />);
    expect(screen.getByText('No working channel: alerts may not reach them')).toBeInTheDocument();
  });
});

describe('the board tile', () => {
  const device: BoardDevice = {
    _id: 'd1',
    deviceName: "Dad's watch",
    isValid: true,
    latest: null,
    sparkline: [],
    limits: null,
    alerts: [],
    teamIds: [],
  };
  const tile = (d: BoardDevice) => (
    <MemoryRouter>
      <BoardTile item={{ device: d, level: 'normal' }} now={Date.now()} unit="F" />
    </MemoryRouter>
  );
  it('flags a device none of whose primary contacts can be reached', () => {
    const { rerender } = render(tile(device));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    rerender(tile({ ...device, noWorkingChannel: true }));
    expect(screen.getByRole('note')).toHaveTextContent('No primary contact can be reached');
  });
});

describe('a care team’s webhooks (Admin → Teams)', () => {
  const team: Team = {
    _id: 't1',
    name: 'North round',
    deviceIds: [],
    members: [],
    createdAt: '2026-11-01T10:00:00.000Z',
  };
  it('lists them and adds one, its secret shown once', async () => {
    const hook = {
      _id: 'w1',
      url: 'https://hooks.slack.com/x',
      format: 'slack',
      createdAt: team.createdAt,
      lastDelivery: null,
    };
    let hooks: unknown[] = [];
    const fetch = routeFetch({
      '/admin/all-devices': () => ok({ devices: [adminDevice()] }),
      '/admin/all-users': () => ok({ users: [adminUser()] }),
      '/admin/teams': () => ok({ teams: [team] }),
      '/admin/teams/t1/webhooks/list': () => ok({ webhooks: hooks }),
      '/admin/teams/t1/webhooks/create': () => {
        hooks = [hook];
        return jsonResponse(201, {
          success: true,
          message: 'Webhook added',
          data: { webhook: hook, secret: 'whsec_abc' },
        });
      },
    });
    renderWithApp(<TeamsPage />, '/admin-dashboard/teams');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Webhooks of North round' }));
    const dialog = screen.getByRole('dialog', { name: 'Webhooks of North round' });
    await user.type(within(dialog).getByLabelText(/Webhook URL/), hook.url);
    await user.selectOptions(within(dialog).getByLabelText(/Format/), 'slack');
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(await within(dialog).findByText('whsec_abc')).toBeInTheDocument();
    expect(await within(dialog).findByText(hook.url)).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/teams/t1/webhooks/create')).toEqual([{ url: hook.url, format: 'slack' }]);
  });
});
