import { randomUUID } from 'node:crypto';
import { type AdminShareLink, type AuditPage, SHARE_MESSAGES } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPost } from './admin-helpers.ts';
import { userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('admin share links on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const list = (auth?: { authorization: string }) =>
    built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/share-links',
      ...(auth ? { headers: auth } : {}),
    });
  const linksOf = async () =>
    (await list(admin.auth)).json<{ data: { links: AdminShareLink[] } }>().data.links;

  async function share(who: TestUser, deviceId: string) {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/share/create',
      headers: who.auth,
      payload: { deviceId, days: 7 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: { link: { _id: string }; token: string } }>().data;
  }

  it('lists every link with its maker, device, expiry and state; revokes any, audited', async () => {
    const { user, device } = await userWithDevice(built(), admin, 'Ward 3 band');
    const { link, token } = await share(user, device._id);
    const orphan = await share(user, device._id);
    const listed = await list(admin.auth);
    expect(listed.statusCode, listed.body).toBe(200);
    const mine = (await linksOf()).find((l) => l._id === link._id);
    expect(mine).toMatchObject({
      deviceId: device._id,
      deviceName: 'Ward 3 band',
      creator: { _id: user.user._id, username: user.user.username },
      state: 'active',
      revokedAt: null,
    });

    const revoked = await adminPost(built(), `share-links/${link._id}/revoke`, admin.auth);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data.link.state).toBe('revoked');
    expect((await built().app.inject({ method: 'GET', url: `/api/v1/shared/${token}` })).statusCode).toBe(
      404,
    );
    const again = await adminPost(built(), `share-links/${link._id}/revoke`, admin.auth);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(SHARE_MESSAGES.adminNotFound);
    expect((await adminPost(built(), `share-links/${randomUUID()}/revoke`, admin.auth)).statusCode).toBe(404);

    // Taken from its maker, the other link shows as serving nothing.
    await adminPost(built(), `update-device/${device._id}`, admin.auth, {
      deviceName: 'Ward 3 band',
      users: [],
    });
    expect((await linksOf()).find((l) => l._id === orphan.link._id)?.state).toBe('no-access');

    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?targetId=${device._id}&action=share-revoke`,
      headers: admin.auth,
    });
    const [entry] = audit.json<{ data: AuditPage }>().data.entries;
    expect(entry).toMatchObject({
      actorId: admin.user._id,
      detail: { link: link._id, maker: user.user._id },
    });
  });

  it('refuses guests (401) and users (403)', async () => {
    const user = await signup(built());
    expect((await list()).statusCode).toBe(401);
    expect((await list(user.auth)).statusCode).toBe(403);
    const path = `share-links/${randomUUID()}/revoke`;
    expect((await adminPost(built(), path)).statusCode).toBe(401);
    expect((await adminPost(built(), path, user.auth)).statusCode).toBe(403);
    expect((await adminPost(built(), 'share-links/not-a-uuid/revoke', admin.auth)).statusCode).toBe(400);
  });
});
