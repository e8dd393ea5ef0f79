import { contracts } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractClient, dataOf } from './contract-client.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique } from './helpers.ts';
import { selfSignedCert } from './push-peer.ts';
import { useWebhookApp } from './receiver-hooks.ts';

const identity = selfSignedCert();

/**
 * Admins' webhooks against a local HTTPS receiver that verifies each signature: a care team's
 * webhook gets every alert of the team's devices (and no other), a platform webhook every alert;
 * retries, the log and replay are a person's webhook's; adding and deleting are audit-logged;
 * only admins may, and a team that does not exist is 404.
 */
describe.each(dbTargets())('team and platform webhooks on $name', (target) => {
  const { built, receiver } = useWebhookApp(target, identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** A device with a carer (so its alerts are sent) and a team holding it. */
  async function teamDevice() {
    const carer = await signup(built());
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/teams',
      headers: admin.auth,
      payload: { name: unique('Ward '), deviceIds: [device._id] },
    });
    expect(res.statusCode).toBe(201);
    return { device, teamId: res.json().data.team._id as string };
  }

  const sos = async (apiAuthCode: string) => {
    expect((await postAlert(built(), apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    await built().ctx.outbox.idle();
  };

  it("a team's webhook gets its devices' alerts, signed; a platform webhook every alert", async () => {
    const client = contractClient(built(), admin);
    const [ours, other] = [await teamDevice(), await teamDevice()];
    const teamPath = `/team-${ours.teamId}`;
    const made = dataOf(
      await client.call(contracts.teamWebhook.create, {
        params: { teamId: ours.teamId },
        body: { url: receiver().url(teamPath), format: 'json' },
      }),
    ).data;
    receiver().expectSecret(teamPath, made.secret);
    const platformPath = `/platform-${ours.teamId}`;
    const platform = dataOf(
      await client.call(contracts.platformWebhook.create, {
        params: {},
        body: { url: receiver().url(platformPath), format: 'slack' },
      }),
    ).data;
    receiver().expectSecret(platformPath, platform.secret);

    await sos(ours.device.apiAuthCode);
    await sos(other.device.apiAuthCode);
    const toTeam = receiver().at(teamPath);
    expect(toTeam.map((r) => [r.verified, JSON.parse(r.body).alert.device])).toEqual([
      [true, ours.device._id],
    ]);
    const toPlatform = receiver().at(platformPath);
    expect(toPlatform).toHaveLength(2);
    expect(toPlatform.every((r) => r.verified)).toBe(true);

    const listed = dataOf(
      await client.call(contracts.teamWebhook.list, { params: { teamId: ours.teamId } }),
    ).data;
    expect(listed.webhooks.map((w) => [w._id, w.lastDelivery?.ok])).toEqual([[made.webhook._id, true]]);
    // Neither is anyone's own webhook.
    const carer = await signup(built());
    expect(
      dataOf(await contractClient(built(), carer).call(contracts.webhook.list, {})).data.webhooks,
    ).toEqual([]);
    await client.call(contracts.platformWebhook.remove, { params: { id: platform.webhook._id } });
  });

  it('a failing team webhook is tried again, logged, and replayed from the log', async () => {
    const client = contractClient(built(), admin);
    const { device, teamId } = await teamDevice();
    const path = `/retry-${teamId}`;
    receiver().script(path, { status: 500 }, { status: 500 }, { status: 500 });
    const made = dataOf(
      await client.call(contracts.teamWebhook.create, {
        params: { teamId },
        body: { url: receiver().url(path), format: 'json' },
      }),
    ).data;
    receiver().expectSecret(path, made.secret);
    await sos(device.apiAuthCode);
    expect(receiver().at(path)).toHaveLength(3);
    const log = dataOf(
      await client.call(contracts.teamWebhook.log, { params: { teamId, id: made.webhook._id } }),
    ).data.deliveries;
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
    const replay = await client.call(contracts.teamWebhook.replay, {
      params: { teamId, id: made.webhook._id, deliveryId: log[0]!._id },
    });
    expect(replay.statusCode).toBe(200);
    await built().ctx.outbox.idle();
    const tries = receiver().at(path);
    expect(tries).toHaveLength(4);
    expect(tries[3]?.headers['webhook-id']).toBe(tries[0]?.headers['webhook-id']);
  });

  it('adding and deleting are audit-logged; only admins; an unknown team or a private address is refused', async () => {
    const client = contractClient(built(), admin);
    const { teamId } = await teamDevice();
    const made = dataOf(
      await client.call(contracts.teamWebhook.create, {
        params: { teamId },
        body: { url: receiver().url(`/audit-${teamId}`), format: 'ntfy' },
      }),
    ).data;
    await client.call(contracts.teamWebhook.remove, { params: { teamId, id: made.webhook._id } });
    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?targetId=${teamId}`,
      headers: admin.auth,
    });
    const actions = (audit.json().data.entries as Array<{ action: string; detail: Record<string, unknown> }>)
      .filter((e) => e.action.startsWith('webhook-'))
      .map((e) => [e.action, e.detail.scope]);
    expect(actions).toEqual([
      ['webhook-delete', 'team'],
      ['webhook-create', 'team'],
    ]);

    const carer = await signup(built());
    const refused = await contractClient(built(), carer).call(contracts.platformWebhook.list, { params: {} });
    expect(refused.statusCode).toBe(403);
    const missing = await client.call(contracts.teamWebhook.list, {
      params: { teamId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.statusCode).toBe(404);
    const internal = await client.call(contracts.platformWebhook.create, {
      params: {},
      body: { url: 'https://10.0.0.5/hook', format: 'json' },
    });
    expect(internal.statusCode).toBe(400);
  });
});
