import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminDevicesPage } from '@/features/admin/components/admin-devices-page.tsx';
import { adminUser, callsTo, devicesPage, fleetDevice, ok, queriesTo, routeFetch } from './admin-fixtures.ts';
import { jsonResponse, renderWithApp } from './render.tsx';

const users = [
  adminUser({ _id: 'u1', username: 'ada' }),
  adminUser({ _id: 'u2', username: 'alan', fullName: 'Alan Turing' }),
  adminUser({ _id: 'u3', username: 'grace', fullName: 'Grace Hopper' }),
];
const band = fleetDevice({
  users: ['u1', 'u2', 'u3'],
  userNames: ['ada', 'alan', 'grace'],
  lastUpdate: '2026-01-05T09:07:00.000Z',
});
const ring = fleetDevice({ _id: 'd2', deviceName: 'Ring', isValid: false, activationCode: 'ACT-2' });

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const base = () => ({
  '/admin/devices': devicesPage([band, ring]),
  '/admin/all-users': () => ok({ users }),
  '/admin/device-latest/d1': () => ok({ healthData: null, mqtt: { host: null, port: 1883 } }),
  '/admin/circle/d1': () => ok({ circle: { deviceId: 'd1', members: [], invitations: [], canManage: true } }),
});

async function rowOf(name: string) {
  return (await screen.findByText(name, { selector: 'td' })).closest('tr') as HTMLElement;
}

describe('device management', () => {
  it('lists devices with switch, users cut after two names, last update; asks for users only', async () => {
    const fetch = routeFetch(base());
    renderWithApp(<AdminDevicesPage />);
    const row = await rowOf('Wrist band');
    expect(within(row).getByRole('switch', { name: 'Wrist band active' })).toBeChecked();
    await waitFor(() => expect(within(row).getByText('ada, alan...')).toBeInTheDocument());
    expect(within(await rowOf('Ring')).getByRole('switch')).not.toBeChecked();
    expect(within(await rowOf('Ring')).getByText('Never')).toBeInTheDocument();
    // The users to pick from are fetched only when a form that assigns them opens.
    expect(callsTo(fetch, '/admin/all-users')).toEqual([]);
    expect(queriesTo(fetch, '/admin/devices')).toEqual([{ sort: 'created', dir: 'desc' }]);
    expect(screen.getByText('2 devices found')).toBeInTheDocument();
  });

  it('toggles validity to the opposite value', async () => {
    const fetch = routeFetch({
      ...base(),
      '/admin/change-validity/d2': () => ok({ device: { ...ring, isValid: true } }),
    });
    renderWithApp(<AdminDevicesPage />);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Ring')).getByRole('switch'));
    expect(await screen.findByText('Device updated successfully')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/change-validity/d2')).toEqual([{ isValid: true }]);
    expect(within(await rowOf('Ring')).getByRole('switch')).toBeChecked();
  });

  it('shows the spec fallback when a toggle fails without a message', async () => {
    routeFetch({ ...base(), '/admin/change-validity/d1': () => new Response('', { status: 502 }) });
    renderWithApp(<AdminDevicesPage />);
    await userEvent.setup().click(within(await rowOf('Wrist band')).getByRole('switch'));
    expect(await screen.findByText('Failed to change device validity')).toBeInTheDocument();
  });

  it('adds a device: name required, active by default, users picked in the selector', async () => {
    const created = fleetDevice({ _id: 'd3', deviceName: 'Patch', users: ['u2', 'u3'] });
    const fetch = routeFetch({ ...base(), '/admin/add-device': () => ok({ device: created }) });
    renderWithApp(<AdminDevicesPage />);
    const user = userEvent.setup();
    await rowOf('Ring');
    await user.click(screen.getByRole('button', { name: 'Add Device' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Device' });
    const submit = within(dialog).getByRole('button', { name: 'Add Device' });
    expect(submit).toBeDisabled();
    expect(within(dialog).getByRole('switch', { name: 'Device active' })).toBeChecked();
    await user.type(within(dialog).getByLabelText('Device Name'), '  ');
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Device Name'), 'Patch');
    const picker = within(dialog).getByRole('button', { name: /Assign Users/ });
    expect(picker).toHaveAccessibleName('Assign Users Select users');
    await user.click(picker);
    await user.click(within(dialog).getByRole('checkbox', { name: /alan/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /grace/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /ada/ }));
    expect(picker).toHaveAccessibleName('Assign Users alan, grace...');
    // The picker's own box (the backup list below it lists ada too now).
    await user.click(within(dialog).getAllByRole('checkbox', { name: /ada/ })[0]!);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Add New Device' })).toBeInTheDocument();
    // The picker is closed; what is left are the assigned users, each possibly a backup contact.
    const backups = within(within(dialog).getByRole('group', { name: 'Backup contacts' })).getAllByRole(
      'checkbox',
    );
    expect(within(dialog).getAllByRole('checkbox')).toEqual(backups);
    expect(backups.map((b) => b.parentElement?.textContent)).toEqual(['alan', 'grace']);
    await user.click(backups[1]!);
    await user.click(submit);
    expect(await screen.findByText('Device added successfully')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/add-device')).toEqual([
      { deviceName: 'Patch', isValid: true, users: ['u2', 'u3'], backupUsers: ['u3'] },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await rowOf('Patch')).toBeInTheDocument();
  });

  it('keeps the edit form open with the server message when saving fails', async () => {
    routeFetch({
      ...base(),
      '/admin/update-device/d2': () =>
        jsonResponse(400, {
          success: false,
          message: 'Only users (not admins) can be assigned',
          code: 'BAD_REQUEST',
        }),
    });
    renderWithApp(<AdminDevicesPage />);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Ring')).getByRole('button', { name: 'Edit Device' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Device' });
    expect(within(dialog).getByLabelText('Device Name')).toHaveValue('Ring');
    expect(within(dialog).getByRole('switch')).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Update Device' }));
    expect(await screen.findByText('Only users (not admins) can be assigned')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Update Device' })).toBeEnabled();
  });

  it('shows codes (API auth code masked), copies them and regenerates after a confirmation', async () => {
    const fetch = routeFetch({
      ...base(),
      '/admin/regenerate-code/d1?codeType=apiAuthCode': () =>
        ok({ device: { ...band, apiAuthCode: 'fresh-key-0002' } }),
    });
    renderWithApp(<AdminDevicesPage />);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Wrist band')).getByRole('button', { name: 'View Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Device Details' });
    expect(within(dialog).getByText('ACT-1234')).toBeInTheDocument();
    expect(within(dialog).queryByText('secret-api-key-0001')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy Activation Code' }));
    expect(await navigator.clipboard.readText()).toBe('ACT-1234');
    expect(await screen.findByText('Activation code copied!')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy API Auth Code' }));
    expect(await navigator.clipboard.readText()).toBe('secret-api-key-0001');
    expect(await screen.findByText('API auth code copied!')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Show API Auth Code' }));
    expect(within(dialog).getByText('secret-api-key-0001')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate API Auth Code' }));
    expect(callsTo(fetch, '/admin/regenerate-code/d1?codeType=apiAuthCode')).toHaveLength(0);
    const confirm = within(dialog).getByRole('alertdialog', { name: 'Regenerate API Auth Code?' });
    await user.click(within(confirm).getByRole('button', { name: 'Regenerate' }));
    expect(await within(dialog).findByText('fresh-key-0002')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/regenerate-code/d1?codeType=apiAuthCode')).toHaveLength(1);
  });

  it('asks before deleting a device and removes it', async () => {
    routeFetch({ ...base(), '/admin/delete-device/d2': () => ok() });
    renderWithApp(<AdminDevicesPage />);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Ring')).getByRole('button', { name: 'Delete Device' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAccessibleDescription('Are you sure you want to delete this device?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Device' }));
    expect(await screen.findByText('Device deleted successfully')).toBeInTheDocument();
    expect(screen.queryByText('Ring', { selector: 'td' })).not.toBeInTheDocument();
  });

  it('searches on the server once the admin stops typing, by name or activation code', async () => {
    const fetch = routeFetch(base());
    renderWithApp(<AdminDevicesPage />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByText('ada, alan...')).toBeInTheDocument());
    await user.type(screen.getByRole('searchbox', { name: 'Search devices' }), 'wrist');
    expect(await screen.findByText('1 devices found')).toBeInTheDocument();
    expect(screen.queryByText('Ring', { selector: 'td' })).not.toBeInTheDocument();
    // One request for the settled search, none per keystroke.
    expect(queriesTo(fetch, '/admin/devices').map((q) => q.q)).toEqual([undefined, 'wrist']);
  });
});

describe('alarm settings (admin)', () => {
  it('opens the device’s alarm settings from its row', async () => {
    const { DEFAULT_ALARM_SETTINGS } = await import('@vitalwatch/shared');
    routeFetch({
      ...base(),
      [`/device/alarm-settings/${band._id}`]: () =>
        ok({ settings: DEFAULT_ALARM_SETTINGS, defaults: DEFAULT_ALARM_SETTINGS, canChange: true }),
    });
    const user = userEvent.setup();
    renderWithApp(<AdminDevicesPage />);
    await user.click(within(await rowOf(band.deviceName)).getByRole('button', { name: 'Alarm Settings' }));
    const dialog = await screen.findByRole('dialog', { name: `Alarm settings · ${band.deviceName}` });
    expect(
      await within(dialog).findByRole('spinbutton', { name: 'High heart rate: Critical at (BPM)' }),
    ).toHaveValue(131);
  });
});
