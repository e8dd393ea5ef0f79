import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { popplerRead } from './pdf-tools.ts';
import { labelQrCodes } from './qr-labels.ts';

describe.each(dbTargets())('device labels on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it('prints one QR code per device that decodes to its claim link, with its name and code', async () => {
    const made = [
      await createDevice(built(), admin, { deviceName: 'Label Zoë' }),
      await createDevice(built(), admin, { deviceName: 'Label Two' }),
    ];
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/device-labels',
      headers: { ...admin.auth, host: 'vitalwatch.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const all = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-devices',
      headers: admin.auth,
    });
    const devices = all.json<{ data: { devices: { activationCode: string; deviceName: string }[] } }>().data
      .devices;
    expect(await labelQrCodes(res.rawPayload)).toEqual(
      devices.map((d) => `http://vitalwatch.example/claim/${encodeURIComponent(d.activationCode)}`),
    );
    const { text } = await popplerRead(res.rawPayload);
    for (const d of made) {
      expect(text).toContain(d.deviceName);
      expect(text).toContain(`Activation code: ${d.activationCode}`);
    }
  });

  it('is for admins only', async () => {
    const user = await signup(built());
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/device-labels',
      headers: user.auth,
    });
    expect(res.statusCode).toBe(403);
  });
});
