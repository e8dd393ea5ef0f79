import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DevicesPage } from '@/features/devices/components/devices-page.tsx';
import { json, makeDevice, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const notFound = (message: string) => json(404, { success: false, message, code: 'NOT_FOUND' });

describe('My Devices', () => {
  it('shows each device with online state, last update and active state', async () => {
    mockApi({
      '/device/get-device': () =>
        ok({
          devices: [
            makeDevice({
              _id: 'd1',
              deviceName: 'Wristband',
              lastUpdate: new Date(Date.now() - 5.5 * 60_000).toISOString(),
            }),
            makeDevice({ _id: 'd2', deviceName: 'Ring', isValid: false, lastUpdate: null }),
          ],
        }),
    });
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    const wrist = (await screen.findByRole('article', { name: 'Wristband' })) as HTMLElement;
    expect(within(wrist).getByText('Online')).toBeInTheDocument();
    expect(within(wrist).getByText('Active')).toBeInTheDocument();
    expect(within(wrist).getByText('5 minutes ago')).toBeInTheDocument();
    const ring = screen.getByRole('article', { name: 'Ring' });
    expect(within(ring).getByText('Offline')).toBeInTheDocument();
    expect(within(ring).getByText('Inactive')).toBeInTheDocument();
    expect(within(ring).getByText('Never')).toBeInTheDocument();
  });

  it('starts empty and adds the first device by activation code', async () => {
    const calls = mockApi({
      '/device/get-device': () => ok({ devices: [] }),
      '/device/add-device': (body) =>
        ok({
          device: makeDevice({ deviceName: (body as { data: { deviceName: string } }).data.deviceName }),
        }),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    expect(await screen.findByText('No devices yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Your First Device' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Device' });
    expect(within(dialog).getByLabelText('Activation Code')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Add Device' }));
    expect(await within(dialog).findByText('Activation code is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Device name is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Activation Code'), 'ABCD-1234');
    await user.type(within(dialog).getByLabelText('Device Name'), "Grandma's band");
    await user.click(within(dialog).getByRole('button', { name: 'Add Device' }));
    expect(await screen.findByText('Device added successfully!')).toBeInTheDocument();
    expect(calls.at(-1)!.body).toEqual({
      data: { activationCode: 'ABCD-1234', deviceName: "Grandma's band" },
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: "Grandma's band" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Device' })).toBeInTheDocument();
  });

  it("shows the server's reason when a code is refused, and keeps the modal open", async () => {
    mockApi({
      '/device/get-device': () => ok({ devices: [] }),
      '/device/add-device': () => notFound('No device has this activation code'),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    await user.click(await screen.findByRole('button', { name: 'Add Your First Device' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Device' });
    await user.type(within(dialog).getByLabelText('Activation Code'), 'NOPE');
    await user.type(within(dialog).getByLabelText('Device Name'), 'X');
    await user.click(within(dialog).getByRole('button', { name: 'Add Device' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No device has this activation code');
    expect(screen.getAllByText('No device has this activation code')).toHaveLength(2);
  });

  it("falls back to 'Failed to add device. Please try again.' without a server message", async () => {
    mockApi({
      '/device/get-device': () => ok({ devices: [] }),
      '/device/add-device': () => new Response('bad gateway', { status: 502 }),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    await user.click(await screen.findByRole('button', { name: 'Add Your First Device' }));
    await user.type(screen.getByLabelText('Activation Code'), 'CODE');
    await user.type(screen.getByLabelText('Device Name'), 'X');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Add Device' }));
    await waitFor(() =>
      expect(screen.getAllByText('Failed to add device. Please try again.')).toHaveLength(2),
    );
  });

  it('renames a device through the Edit name modal', async () => {
    mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice({ deviceName: 'Wristband' })] }),
      '/device/update-device': (body) =>
        ok({ device: makeDevice({ deviceName: (body as { data: { newName: string } }).data.newName }) }),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    await user.click(await screen.findByRole('button', { name: 'Edit name of Wristband' }));
    const input = within(screen.getByRole('dialog', { name: 'Edit name' })).getByLabelText('Device Name');
    expect(input).toHaveValue('Wristband');
    await user.clear(input);
    await user.type(input, 'Left wrist');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Device name updated successfully!')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Left wrist' })).toBeInTheDocument();
  });

  it("toasts 'Failed to update device. Please try again.' when renaming fails", async () => {
    mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice()] }),
      '/device/update-device': () => new Response('', { status: 500 }),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    await user.click(await screen.findByRole('button', { name: 'Edit name of Wristband' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getAllByText('Failed to update device. Please try again.')).toHaveLength(2),
    );
  });

  it('modals trap focus and close on Escape', async () => {
    mockApi({ '/device/get-device': () => ok({ devices: [makeDevice()] }) });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    const opener = await screen.findByRole('button', { name: 'Add Device' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Add Device' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    within(dialog).getByRole('button', { name: 'Add Device' }).focus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Add Device' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it("shows 'Failed to fetch devices' with a retry", async () => {
    let fail = true;
    mockApi({
      '/device/get-device': () => (fail ? new Response('', { status: 500 }) : ok({ devices: [] })),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    expect(await screen.findByText('Failed to fetch devices')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No devices yet')).toBeInTheDocument();
  });
});

describe('alarm settings', () => {
  it('shows the device’s conditions, refuses unsafe values before sending, saves safe ones', async () => {
    const { DEFAULT_ALARM_SETTINGS } = await import('@vitalwatch/shared');
    const calls = mockApi({
      '/device/get-device': () => ok({ devices: [makeDevice({ _id: 'd1', deviceName: 'Wristband' })] }),
      '/device/alarm-settings/d1': () =>
        ok({ settings: DEFAULT_ALARM_SETTINGS, defaults: DEFAULT_ALARM_SETTINGS, canChange: true }),
      '/device/update-alarm-settings/d1': (body) =>
        ok({
          settings: (body as { settings: unknown }).settings,
          defaults: DEFAULT_ALARM_SETTINGS,
          canChange: true,
        }),
    });
    const user = userEvent.setup();
    renderSignedIn(<DevicesPage />, '/dashboard/devices');
    await user.click(await screen.findByRole('button', { name: 'Alarm settings of Wristband' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alarm settings · Wristband' });
    const limit = await within(dialog).findByRole('spinbutton', {
      name: 'Low blood oxygen: Alarm limit (%)',
    });
    expect(limit).toHaveValue(95);
    expect(within(dialog).getByRole('spinbutton', { name: 'Low blood oxygen: Delay (s)' })).toHaveValue(30);
    expect(within(dialog).getByRole('spinbutton', { name: 'Repeat every (minutes)' })).toHaveValue(2);

    await user.clear(limit);
    await user.type(limit, '60');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Alarm limit must be at least 85')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/device/update-alarm-settings'))).toBe(false);

    await user.clear(limit);
    await user.type(limit, '92');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const saved = calls.find((c) => c.path === '/device/update-alarm-settings/d1')?.body as {
      settings: typeof DEFAULT_ALARM_SETTINGS;
    };
    expect(saved.settings.conditions.LOW_SPO2.limit).toBe(92);
    expect(await screen.findByText('Alarm settings saved')).toBeInTheDocument();
  });
});
