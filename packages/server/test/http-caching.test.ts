import { beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const [pglite] = dbTargets();

describe('Cache-Control of health data answers', () => {
  const built = useTestApp(pglite!, {
    ingest: { offlineSweepIntervalMs: 0 },
    vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@vitalwatch.local' },
  });
  let owner: TestUser;
  let deviceId: string;
  let shareToken: string;

  beforeAll(async () => {
    const admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin, 'Cache watch');
    owner = made.user;
    deviceId = made.device._id;
    expect((await postHealth(built(), made.device.apiAuthCode, { spo2: 97, heartRate: 70 })).statusCode).toBe(
      202,
    );
    expect((await postAlert(built(), made.device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    const share = await built().app.inject({
      method: 'POST',
      url: '/api/v1/share/create',
      headers: owner.auth,
      payload: { deviceId, days: 1 },
    });
    expect(share.statusCode).toBe(201);
    shareToken = share.json<{ data: { token: string } }>().data.token;
  });

  it('is no-store on every API and FHIR answer with health data, errors included', async () => {
    const hour = new Date(Date.now() - 3_600_000).toISOString();
    const now = new Date(Date.now() + 60_000).toISOString();
    const requests: [string, string, object?][] = [
      ['GET', '/api/v1/user/profile'],
      ['POST', `/api/v1/health/fetch/${deviceId}`],
      ['POST', `/api/v1/health/history/${deviceId}`, { from: hour, to: now }],
      ['POST', '/api/v1/alert/all'],
      ['POST', '/api/v1/alert/latest/5'],
      ['POST', '/api/v1/device/get-device'],
      ['GET', `/api/v1/shared/${shareToken}`],
      ['POST', `/api/v1/shared/${shareToken}/history`, { from: hour, to: now }],
      ['GET', `/api/v1/export/readings/${deviceId}?from=${hour}&to=${now}`],
      ['GET', `/fhir/R4/Observation?device=${deviceId}`],
      ['GET', `/fhir/R4/Device/${deviceId}`],
      ['GET', '/fhir/R4/metadata'],
    ];
    for (const [method, url, payload] of requests) {
      const res = await built().app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: owner.auth,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBeLessThan(300);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    for (const url of ['/api/v1/user/profile', '/api/v1/nothing-here', '/fhir/R4/Observation']) {
      const refused = await built().app.inject({ method: 'GET', url });
      expect(refused.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(refused.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('lets public data opt out: the VAPID key and the OpenAPI document', async () => {
    const key = await built().app.inject({ method: 'GET', url: '/api/v1/push/public-key' });
    expect(key.statusCode).toBe(200);
    expect(key.headers['cache-control']).toBe('public, max-age=300');
    const openapi = await built().app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(openapi.headers['cache-control']).toBe('no-cache');
  });
});
