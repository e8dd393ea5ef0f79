import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminDevicesPage } from '@/features/admin/components/admin-devices-page.tsx';
import { adminDevice, callsTo, devicesPage, fleetDevice, ok, routeFetch } from './admin-fixtures.ts';
import { jsonResponse, renderWithApp } from './render.tsx';

const band = adminDevice();
const reading = { messageId: 'admin-test-1', spo2: 98, heartRate: 71, temperature: 98.1, battery: 93 };

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

async function openDetails() {
  const user = userEvent.setup();
  const row = (await screen.findByText(band.deviceName, { selector: 'td' })).closest('tr') as HTMLElement;
  await user.click(within(row).getByRole('button', { name: 'View Details' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Device Details' }) };
}

describe('the admin first-run path', () => {
  it('with no devices, says what to do first, in steps', async () => {
    routeFetch({
      '/admin/devices': devicesPage([].map((d) => fleetDevice(d))),
      '/admin/all-users': () => ok({ users: [] }),
    });
    renderWithApp(<AdminDevicesPage />);
    const steps = await screen.findByRole('region', { name: 'Your first device, in three steps' });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Add Device and give it a name/),
      expect.stringMatching(/View Details.*Send a test reading.*API auth code/),
      expect.stringMatching(/activation code.*My Devices → Add Device/),
    ]);
    expect(steps).toHaveTextContent('--assign-to <username>');
  });

  it('sends a test reading and shows it as the newest reading, online', async () => {
    let stored: object | null = null;
    const fetch = routeFetch({
      '/admin/devices': devicesPage([band].map((d) => fleetDevice(d))),
      '/admin/all-users': () => ok({ users: [] }),
      '/admin/device-latest/d1': () => ok({ healthData: stored, mqtt: null }),
      '/admin/test-reading/d1': () => {
        const { messageId: _, ...values } = reading;
        stored = { _id: '1', device: 'd1', ...values, createdAt: new Date().toISOString() };
        return jsonResponse(202, {
          success: true,
          message: 'Test reading sent',
          data: { accepted: 1, duplicates: 0, reading },
        });
      },
    });
    renderWithApp(<AdminDevicesPage />);
    const { user, dialog } = await openDetails();
    expect(await within(dialog).findByText('No reading yet')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send a test reading' }));
    expect(await screen.findByText('Test reading sent')).toBeInTheDocument();
    expect(await within(dialog).findByText(/^Online · last reading/)).toBeInTheDocument();
    expect(within(dialog).getByText('71')).toBeInTheDocument();
    expect(within(dialog).getByText('98.1')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/test-reading/d1')).toHaveLength(1);
    // MQTT off on this server: only the HTTP command.
    expect(within(dialog).getByText(/MQTT is off on this server/)).toBeInTheDocument();
  });

  it("says why an inactive device's test reading cannot be sent", async () => {
    const off = adminDevice({ isValid: false });
    routeFetch({
      '/admin/devices': devicesPage([off].map((d) => fleetDevice(d))),
      '/admin/all-users': () => ok({ users: [] }),
      '/admin/device-latest/d1': () => ok({ healthData: null, mqtt: null }),
    });
    renderWithApp(<AdminDevicesPage />);
    const { dialog } = await openDetails();
    expect(await within(dialog).findByText(/Inactive: its readings are refused/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send a test reading' })).toBeDisabled();
  });

  it('labels each code by who uses it, and copies HTTP and MQTT commands with the code filled in', async () => {
    routeFetch({
      '/admin/devices': devicesPage([band].map((d) => fleetDevice(d))),
      '/admin/all-users': () => ok({ users: [] }),
      '/admin/device-latest/d1': () => ok({ healthData: null, mqtt: { host: null, port: 1884 } }),
    });
    renderWithApp(<AdminDevicesPage />);
    const { user, dialog } = await openDetails();
    // With a device, the first-run steps are gone.
    expect(screen.queryByRole('region', { name: /Your first device/ })).not.toBeInTheDocument();
    expect(
      within(dialog).getByText('For the person who wears it or cares for them: My Devices → Add Device'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('For the device itself: X-Api-Key header or MQTT password'),
    ).toBeInTheDocument();

    await user.click(await within(dialog).findByRole('button', { name: 'Copy HTTP (curl) snippet' }));
    expect(await screen.findByText('HTTP snippet copied!')).toBeInTheDocument();
    const curl = await navigator.clipboard.readText();
    expect(curl).toContain(`'${window.location.origin}/api/v1/ingest/health'`);
    expect(curl).toContain("-H 'X-Api-Key: secret-api-key-0001'");

    await user.click(within(dialog).getByRole('button', { name: 'Copy MQTT (mosquitto_pub) snippet' }));
    const mqtt = await navigator.clipboard.readText();
    expect(mqtt).toContain(`-h '${window.location.hostname}' -p 1884 -q 1`);
    expect(mqtt).toContain("-u 'd1' -P 'secret-api-key-0001'");
    expect(mqtt).toContain("-t 'devices/d1/health'");
    // On screen the code stays hidden.
    expect(dialog.textContent).not.toContain('secret-api-key-0001');
  });
});
