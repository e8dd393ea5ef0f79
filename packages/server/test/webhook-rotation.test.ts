import { contracts, WEBHOOK_SECRET_OVERLAP_MS } from '@vitalwatch/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '../src/webhooks/signing.ts';
import { contractClient, dataOf } from './contract-client.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique } from './helpers.ts';
import { selfSignedCert } from './push-peer.ts';
import { useWebhookApp } from './receiver-hooks.ts';

const identity = selfSignedCert();
let paths = 0;
const nextPath = () => {
  paths += 1;
  return `/rotate-${paths}`;
};

afterEach(() => {
  vi.useRealTimers();
});

/**
 * "Rotate secret" against a local HTTPS receiver that verifies each Standard Webhooks signature
 * with the one secret it holds: for WEBHOOK_SECRET_OVERLAP_MS after a rotation every message
 * carries a signature by the new and by the old secret, so a receiver holding either verifies;
 * after it (the clock moved past) only the new one does. Only the owner may rotate (a person
 * their own, admins a team's or the platform's), and every rotation is audit-logged.
 */
describe.each(dbTargets())('webhook secret rotation on $name', (target) => {
  const { built, receiver } = useWebhookApp(target, identity, 2);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  async function carerWithHook() {
    const carer = await signup(built());
    const path = nextPath();
    const made = dataOf(
      await contractClient(built(), carer).call(contracts.webhook.create, {
        body: { url: receiver().url(path), format: 'json' },
      }),
    ).data;
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    return { carer, path, hookId: made.webhook._id, oldSecret: made.secret, device };
  }

  /** An SOS of the device, delivered through the outbox; what the receiver got for it. */
  async function alertArrives(path: string, apiAuthCode: string) {
    const before = receiver().at(path).length;
    expect((await postAlert(built(), apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    await built().ctx.outbox.idle();
    const got = receiver().at(path).slice(before);
    expect(got).toHaveLength(1);
    return got[0]!;
  }

  /** The person's client again once the clock has moved a day on (their access token has expired by then). */
  async function refreshed(user: TestUser) {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/refresh',
      payload: { refreshToken: user.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    const { accessToken, refreshToken } = res.json().data as { accessToken: string; refreshToken: string };
    return contractClient(built(), {
      ...user,
      accessToken,
      refreshToken,
      auth: { authorization: `Bearer ${accessToken}` },
    });
  }

  const signatures = (hook: { headers: Record<string, unknown> }) =>
    String(hook.headers['webhook-signature']).split(' ');

  it('for a day both secrets sign every message, so a receiver holding either verifies; then only the new one', async () => {
    const { carer, path, hookId, oldSecret, device } = await carerWithHook();
    let client = contractClient(built(), carer);
    const rotated = await client.call(contracts.webhook.rotate, { params: { id: hookId } });
    expect(rotated.statusCode).toBe(200);
    const { secret: newSecret, webhook } = dataOf(rotated).data;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const until = Date.parse(webhook.previousSecretUntil ?? '');
    expect(Math.abs(until - (Date.now() + WEBHOOK_SECRET_OVERLAP_MS))).toBeLessThan(60_000);

    // During the overlap: a receiver that still holds only the old secret verifies an alert…
    receiver().expectSecret(path, oldSecret);
    const toOld = await alertArrives(path, device.apiAuthCode);
    expect(toOld.verified).toBe(true);
    expect(signatures(toOld)).toHaveLength(2);
    expect(verifySignature(newSecret, toOld.headers, toOld.body)).toBe(true);
    // …and one that already holds only the new secret verifies the next, as does a test alert.
    receiver().expectSecret(path, newSecret);
    expect((await alertArrives(path, device.apiAuthCode)).verified).toBe(true);
    expect(dataOf(await client.call(contracts.webhook.test, { params: { id: hookId } })).data).toMatchObject({
      ok: true,
      status: 200,
    });

    // A minute before the overlap ends the old secret still verifies.
    vi.useFakeTimers({ toFake: ['Date'], now: until - 60_000 });
    client = await refreshed(carer);
    receiver().expectSecret(path, oldSecret);
    expect(dataOf(await client.call(contracts.webhook.test, { params: { id: hookId } })).data.ok).toBe(true);

    // After the overlap only the new secret signs: the old one's receiver refuses (401)…
    vi.setSystemTime(until + 1000);
    expect(dataOf(await client.call(contracts.webhook.test, { params: { id: hookId } })).data).toMatchObject({
      ok: false,
      status: 401,
    });
    // …and a message through the outbox (a replay from the log) carries one signature, the new one's.
    receiver().expectSecret(path, newSecret);
    const [last] = dataOf(await client.call(contracts.webhook.log, { params: { id: hookId } })).data
      .deliveries;
    expect(
      (await client.call(contracts.webhook.replay, { params: { id: hookId, deliveryId: last!._id } }))
        .statusCode,
    ).toBe(200);
    await built().ctx.outbox.idle();
    const replayed = receiver().at(path).at(-1)!;
    expect(replayed.verified).toBe(true);
    expect(signatures(replayed)).toHaveLength(1);
    expect(verifySignature(oldSecret, replayed.headers, replayed.body)).toBe(false);
    const [listed] = dataOf(await client.call(contracts.webhook.list, {})).data.webhooks;
    expect(listed?.previousSecretUntil).toBeNull();
  });

  it("someone else's webhook is 404 and keeps its secret; a non-admin gets 403 on a team's or the platform's", async () => {
    const { path, hookId, oldSecret, device } = await carerWithHook();
    const stranger = await signup(built());
    const strangerClient = contractClient(built(), stranger);
    expect((await strangerClient.call(contracts.webhook.rotate, { params: { id: hookId } })).statusCode).toBe(
      404,
    );
    receiver().expectSecret(path, oldSecret);
    const got = await alertArrives(path, device.apiAuthCode);
    expect([got.verified, signatures(got).length]).toEqual([true, 1]);

    const teamId = await newTeam();
    const teamHook = await teamWebhook(teamId);
    expect(
      (await strangerClient.call(contracts.teamWebhook.rotate, { params: { teamId, id: teamHook } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await strangerClient.call(contracts.platformWebhook.rotate, { params: { id: teamHook } })).statusCode,
    ).toBe(403);
    // A team's webhook is not the platform's, nor another team's.
    const adminClient = contractClient(built(), admin);
    expect(
      (await adminClient.call(contracts.platformWebhook.rotate, { params: { id: teamHook } })).statusCode,
    ).toBe(404);
    const otherTeam = await newTeam();
    expect(
      (await adminClient.call(contracts.teamWebhook.rotate, { params: { teamId: otherTeam, id: teamHook } }))
        .statusCode,
    ).toBe(404);
  });

  async function newTeam() {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/teams',
      headers: admin.auth,
      payload: { name: unique('Ward '), deviceIds: [] },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.team._id as string;
  }

  async function teamWebhook(teamId: string) {
    const made = await contractClient(built(), admin).call(contracts.teamWebhook.create, {
      params: { teamId },
      body: { url: receiver().url(nextPath()), format: 'json' },
    });
    return dataOf(made).data.webhook._id;
  }

  const rotations = async (hookId: string) => {
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/audit?action=webhook-rotate&limit=200',
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    return (
      res.json().data.entries as Array<{
        actor: unknown;
        targetId: string | null;
        detail: Record<string, unknown>;
      }>
    )
      .filter((e) => e.detail.webhook === hookId)
      .map((e) => [e.detail.scope, e.targetId, typeof e.detail.oldSecretUntil]);
  };

  it('every rotation is audit-logged: a person’s own, a team’s and the platform’s', async () => {
    const { carer, hookId } = await carerWithHook();
    await contractClient(built(), carer).call(contracts.webhook.rotate, { params: { id: hookId } });
    expect(await rotations(hookId)).toEqual([['user', null, 'string']]);

    const adminClient = contractClient(built(), admin);
    const teamId = await newTeam();
    const teamHook = await teamWebhook(teamId);
    const teamRotated = await adminClient.call(contracts.teamWebhook.rotate, {
      params: { teamId, id: teamHook },
    });
    expect(teamRotated.statusCode).toBe(200);
    expect(await rotations(teamHook)).toEqual([['team', teamId, 'string']]);

    const platform = dataOf(
      await adminClient.call(contracts.platformWebhook.create, {
        params: {},
        body: { url: receiver().url(nextPath()), format: 'json' },
      }),
    ).data;
    const platformRotated = await adminClient.call(contracts.platformWebhook.rotate, {
      params: { id: platform.webhook._id },
    });
    expect(dataOf(platformRotated).data.secret).not.toBe(platform.secret);
    expect(await rotations(platform.webhook._id)).toEqual([['platform', null, 'string']]);
    await adminClient.call(contracts.platformWebhook.remove, { params: { id: platform.webhook._id } });
  });
});
