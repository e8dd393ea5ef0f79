import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CircleMember } from '@vitalwatch/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminDevicesPage } from '@/features/admin/components/admin-devices-page.tsx';
import { adminUser, callsTo, devicesPage, fleetDevice, ok, routeFetch } from './admin-fixtures.ts';
import { jsonResponse, renderWithApp } from './render.tsx';

const band = fleetDevice({ users: ['u1', 'u2'], userNames: ['ada', 'alan'] });
const member = (userId: string, fullName: string, circleRole: CircleMember['circleRole']): CircleMember => ({
  userId,
  fullName,
  circleRole,
  alerts: circleRole === 'viewer' ? 'none' : 'primary',
  since: '2026-01-05T09:07:00.000Z',
  pending: false,
  browsersNotReceiving: 0,
  workingChannel: true,
});
const circleOf = (...members: CircleMember[]) =>
  ok({ circle: { deviceId: 'd1', members, invitations: [], canManage: true } });

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const routes = (role: Parameters<typeof routeFetch>[0][string]) => ({
  '/admin/devices': devicesPage([band]),
  '/admin/all-users': () =>
    ok({ users: [adminUser({ _id: 'u1', username: 'ada' }), adminUser({ _id: 'u2', username: 'alan' })] }),
  '/admin/device-latest/d1': () => ok({ healthData: null, mqtt: { host: null, port: 1883 } }),
  '/admin/circle/d1': () =>
    circleOf(member('u1', 'Ada Lovelace', 'carer'), member('u2', 'Alan Turing', 'carer')),
  '/admin/circle/d1/role': role,
});

async function openDetails() {
  const user = userEvent.setup();
  renderWithApp(<AdminDevicesPage />);
  const row = (await screen.findByText('Wrist band', { selector: 'td' })).closest('tr') as HTMLElement;
  await user.click(within(row).getByRole('button', { name: 'View Details' }));
  const dialog = screen.getByRole('dialog', { name: 'Device Details' });
  return { user, circle: await within(dialog).findByRole('list', { name: 'Care circle' }) };
}

describe('Device Details → Care circle', () => {
  it("lists the device's people and makes one of them owner", async () => {
    const fetch = routeFetch(
      routes(() => circleOf(member('u1', 'Ada Lovelace', 'owner'), member('u2', 'Alan Turing', 'carer'))),
    );
    const { user, circle } = await openDetails();
    const ada = within(circle).getByRole('combobox', { name: 'Role of Ada Lovelace' });
    expect(ada).toHaveValue('carer');
    expect(within(circle).getAllByText(/Primary: every alert/)).toHaveLength(2);
    await user.selectOptions(ada, 'owner');
    expect(await screen.findByText('Ada Lovelace is now owner')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/circle/d1/role')).toEqual([{ userId: 'u1', circleRole: 'owner' }]);
    expect(within(circle).getByRole('combobox', { name: 'Role of Ada Lovelace' })).toHaveValue('owner');
  });

  it('says why the server refused (the last owner) and keeps the role shown', async () => {
    routeFetch(
      routes(() =>
        jsonResponse(409, {
          success: false,
          message: 'A device needs an owner: make someone else owner first',
          code: 'CONFLICT',
        }),
      ),
    );
    const { user, circle } = await openDetails();
    await user.selectOptions(within(circle).getByRole('combobox', { name: 'Role of Alan Turing' }), 'viewer');
    expect(
      await screen.findByText('A device needs an owner: make someone else owner first'),
    ).toBeInTheDocument();
    expect(within(circle).getByRole('combobox', { name: 'Role of Alan Turing' })).toHaveValue('carer');
  });
});
