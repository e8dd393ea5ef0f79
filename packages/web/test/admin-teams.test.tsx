import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Team } from '@vitalwatch/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamsPage } from '@/features/admin/components/teams/teams-page.tsx';
import { adminDevice, adminUser, callsTo, ok, routeFetch } from './admin-fixtures.ts';
import { jsonResponse, renderWithApp } from './render.tsx';

const ada = adminUser();
const band = adminDevice();
const existing: Team = {
  _id: 't1',
  name: 'North round',
  deviceIds: [band._id],
  members: [{ userId: ada._id, role: 'backup' }],
  createdAt: '2026-11-01T10:00:00.000Z',
};

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** Issue 25: Admin Dashboard → Teams. */
describe('teams screen', () => {
  it('lists teams with members (backups marked) and creates one with devices and a primary user', async () => {
    const fetch = routeFetch({
      '/admin/all-devices': () => ok({ devices: [band] }),
      '/admin/all-users': () => ok({ users: [ada] }),
      '/admin/teams': (body) =>
        body === undefined
          ? ok({ teams: [existing] })
          : jsonResponse(201, {
              success: true,
              message: 'Team created successfully',
              data: { team: { ...existing, _id: 't2', ...(body as object), createdAt: existing.createdAt } },
            }),
    });
    renderWithApp(<TeamsPage />, '/admin-dashboard/teams');
    const row = (await screen.findByText('North round')).closest('tr') as HTMLElement;
    expect(within(row).getByText(`${ada.username} (backup)`)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New Team' }));
    const dialog = screen.getByRole('dialog', { name: 'New Team' });
    await user.type(within(dialog).getByLabelText(/Team Name/), 'Ward B – nights');
    await user.click(within(dialog).getByRole('checkbox', { name: band.deviceName }));
    await user.click(within(dialog).getByRole('checkbox', { name: new RegExp(ada.username) }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Team' }));
    expect(await screen.findByText('Ward B – nights')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/teams').filter(Boolean)).toEqual([
      { name: 'Ward B – nights', deviceIds: [band._id], members: [{ userId: ada._id, role: 'primary' }] },
    ]);
  });

  it('with no team yet, says what to do first', async () => {
    routeFetch({
      '/admin/all-devices': () => ok({ devices: [band] }),
      '/admin/all-users': () => ok({ users: [ada] }),
      '/admin/teams': () => ok({ teams: [] }),
    });
    renderWithApp(<TeamsPage />, '/admin-dashboard/teams');
    expect(await screen.findByText('No teams yet')).toBeInTheDocument();
    expect(screen.getByText(/^First step: New Team\. Name it/)).toBeInTheDocument();
  });
});
