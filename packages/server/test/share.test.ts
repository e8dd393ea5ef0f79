import { type AuditPage, SHARE_MESSAGES } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('share links on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  let owner: TestUser;
  let deviceId: string;

  beforeAll(async () => {
    admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin, 'Wristband');
    owner = made.user;
    deviceId = made.device._id;
    const recordedAt = new Date(Date.now() - 60_000).toISOString();
    const ingest = await postHealth(built(), made.device.apiAuthCode, {
      recordedAt,
      spo2: 96,
      heartRate: 70,
    });
    expect(ingest.statusCode).toBe(202);
  });

  const post = (url: string, who: TestUser, payload?: object) =>
    built().app.inject({ method: 'POST', url, headers: who.auth, ...(payload ? { payload } : {}) });
  const open = (url: string) => built().app.inject({ method: 'GET', url });
  const create = async (days = 7) => {
    const res = await post('/api/v1/share/create', owner, { deviceId, days });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: { link: { _id: string; expiresAt: string }; token: string } }>().data;
  };

  it('shows the newest reading, the history and the report to someone without an account', async () => {
    const { link, token } = await create(7);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const shared = await open(`/api/v1/shared/${token}`);
    expect(shared.statusCode).toBe(200);
    expect(shared.json().data).toMatchObject({
      deviceName: 'Wristband',
      latest: { spo2: 96, heartRate: 70 },
    });
    const to = new Date();
    const from = new Date(to.getTime() - 3_600_000);
    const history = await built().app.inject({
      method: 'POST',
      url: `/api/v1/shared/${token}/history`,
      payload: { from: from.toISOString(), to: to.toISOString() },
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().data.summary.readings).toBe(1);
    const report = await open(
      `/api/v1/shared/${token}/report?from=${from.toISOString()}&to=${to.toISOString()}`,
    );
    expect(report.statusCode).toBe(200);
    expect(report.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The token is the only key: nothing else of the account opens with it.
    const asBearer = await built().app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asBearer.statusCode).toBe(401);
  });

  it('ends at revocation and at expiry; only its maker lists and revokes it; all of it audited', async () => {
    const { link, token } = await create(1);
    const listed = await post('/api/v1/share/list', owner, { deviceId });
    expect(listed.json().data.links.map((l: { _id: string }) => l._id)).toContain(link._id);

    const stranger = await signup(built());
    expect((await post('/api/v1/share/list', stranger, { deviceId })).statusCode).toBe(404);
    expect((await post('/api/v1/share/create', stranger, { deviceId, days: 7 })).statusCode).toBe(404);
    expect((await post(`/api/v1/share/revoke/${link._id}`, stranger)).statusCode).toBe(404);
    const badDays = await post('/api/v1/share/create', owner, { deviceId, days: 365 });
    expect(badDays.statusCode).toBe(400);
    expect(badDays.json().issues).toEqual([{ path: 'days', message: SHARE_MESSAGES.daysInvalid }]);

    const revoked = await post(`/api/v1/share/revoke/${link._id}`, owner);
    expect(revoked.statusCode).toBe(200);
    const gone = await open(`/api/v1/shared/${token}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(SHARE_MESSAGES.notFound);
    expect((await post(`/api/v1/share/revoke/${link._id}`, owner)).statusCode).toBe(404);

    const { token: soon } = await create(1);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 86_400_000 + 60_000 });
    try {
      expect((await open(`/api/v1/shared/${soon}`)).statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
    }
    expect((await open('/api/v1/shared/not-a-token-at-all-but-long-enough')).statusCode).toBe(404);

    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?targetId=${deviceId}&limit=100`,
      headers: admin.auth,
    });
    const actions = audit.json<{ data: AuditPage }>().data.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['share-create', 'share-revoke', 'data-export']));
  });
});
