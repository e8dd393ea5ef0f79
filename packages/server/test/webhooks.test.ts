import { contracts } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { outboxDir } from '../src/mail/mailer.ts';
import { NotificationOutbox } from '../src/notification-outbox/outbox.ts';
import { contractClient, dataOf } from './contract-client.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, verifyEmail } from './helpers.ts';
import { mailsIn } from './outbox-mail.ts';
import { selfSignedCert } from './push-peer.ts';
import { useWebhookApp } from './receiver-hooks.ts';

const identity = selfSignedCert();
let paths = 0;
/** A path of its own on the receiver for each webhook. */
const nextPath = () => {
  paths += 1;
  return `/hook-${paths}`;
};

/**
 * Webhooks against a local HTTPS receiver that verifies each signature over the raw body: a
 * person's webhook gets each alert in its format, signed, with one id over every retry; 5xx is
 * tried again, the last failure is dead-lettered and replayable; every try is logged; the outcome
 * is on the alert's timeline; private addresses are refused; a hanging receiver holds no ingest.
 */
describe.each(dbTargets())('webhooks on $name', (target) => {
  const { built, receiver } = useWebhookApp(target, identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** A carer with one webhook of this format, verified by the receiver with its secret. */
  async function carerWithHook(format: 'json' | 'slack' | 'teams' | 'ntfy' | 'pagerduty' = 'json') {
    const carer = await signup(built());
    const path = nextPath();
    const created = dataOf(
      await contractClient(built(), carer).call(contracts.webhook.create, {
        body: {
          url: receiver().url(path),
          format,
          ...(format === 'pagerduty' ? { routingKey: 'R0UTING' } : {}),
        },
      }),
    ).data;
    expect(created.secret).toMatch(/^whsec_/);
    receiver().expectSecret(path, created.secret);
    return { carer, path, hookId: created.webhook._id };
  }

  async function raise(carer: TestUser) {
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    const [row] = await rawRows(
      built().ctx.db,
      sql`select id::text from alerts where device_id = ${device._id}::uuid`,
      z.object({ id: z.string() }),
    );
    return row!.id;
  }

  const webhookEvents = async (carer: TestUser, alertId: string) => {
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${alertId}`,
      headers: carer.auth,
    });
    return (res.json().data.timeline as Array<{ kind: string; channel: string; ok: boolean; detail: string }>)
      .filter((e) => e.channel === 'webhook')
      .map((e) => [e.kind, e.ok, e.detail]);
  };

  it('an alert reaches the webhook signed, with its id, and the timeline says so', async () => {
    const { carer, path } = await carerWithHook();
    const alertId = await raise(carer);
    await built().ctx.outbox.idle();
    const [got] = receiver().at(path);
    expect(got?.verified).toBe(true);
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({
      type: 'alert',
      id: got!.headers['webhook-id'],
      alert: { id: alertId, priority: 'high' },
    });
    expect(await webhookEvents(carer, alertId)).toEqual([['notified', true, null]]);
  });

  it('5xx is tried again with the same id until it arrives; the log keeps every answer', async () => {
    const { carer, path, hookId } = await carerWithHook();
    receiver().script(path, { status: 500 }, { status: 503 });
    const alertId = await raise(carer);
    await built().ctx.outbox.idle();
    const tries = receiver().at(path);
    expect(tries.map((t) => t.verified)).toEqual([true, true, true]);
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).toBe(1);
    expect(await webhookEvents(carer, alertId)).toEqual([['notified', true, null]]);
    const log = dataOf(
      await contractClient(built(), carer).call(contracts.webhook.log, { params: { id: hookId } }),
    ).data;
    expect(log.deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [3, 200, true],
      [2, 503, false],
      [1, 500, false],
    ]);
  });

  it('after the last try it is dead-lettered and on the timeline; a replay from the log delivers it', async () => {
    const { carer, path, hookId } = await carerWithHook();
    receiver().script(path, { status: 500 }, { status: 500 }, { status: 500 });
    const alertId = await raise(carer);
    await built().ctx.outbox.idle();
    expect(receiver().at(path)).toHaveLength(3);
    expect(await webhookEvents(carer, alertId)).toEqual([['notified', false, 'webhook answered 500']]);
    const client = contractClient(built(), carer);
    const [last] = dataOf(await client.call(contracts.webhook.log, { params: { id: hookId } })).data
      .deliveries;
    const replay = await client.call(contracts.webhook.replay, {
      params: { id: hookId, deliveryId: last!._id },
    });
    expect(replay.statusCode).toBe(200);
    await built().ctx.outbox.idle();
    const tries = receiver().at(path);
    expect(tries).toHaveLength(4);
    expect(tries[3]?.headers['webhook-id']).toBe(tries[0]?.headers['webhook-id']);
    expect(tries[3]?.verified).toBe(true);
  });

  it('"Send a test alert" says whether it arrived, and the list shows the last delivery', async () => {
    const { carer, path, hookId } = await carerWithHook();
    const client = contractClient(built(), carer);
    expect(dataOf(await client.call(contracts.webhook.test, { params: { id: hookId } })).data).toMatchObject({
      ok: true,
      status: 200,
    });
    receiver().script(path, { status: 404 });
    expect(dataOf(await client.call(contracts.webhook.test, { params: { id: hookId } })).data).toMatchObject({
      ok: false,
      status: 404,
    });
    const [listed] = dataOf(await client.call(contracts.webhook.list, {})).data.webhooks;
    expect(listed).toMatchObject({ _id: hookId, lastDelivery: { ok: false, status: 404 } });
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    // Someone else's webhook is not there for them.
    const stranger = contractClient(built(), await signup(built()));
    expect((await stranger.call(contracts.webhook.test, { params: { id: hookId } })).statusCode).toBe(404);
  });

  it('Slack, Teams, ntfy and PagerDuty get their own formats; ntfy and PagerDuty by priority', async () => {
    const carer = await signup(built());
    const client = contractClient(built(), carer);
    const hooks: Record<string, string> = {};
    for (const format of ['slack', 'teams', 'ntfy', 'pagerduty'] as const) {
      const path = nextPath();
      const created = dataOf(
        await client.call(contracts.webhook.create, {
          body: {
            url: receiver().url(path),
            format,
            ...(format === 'pagerduty' ? { routingKey: 'R0UTING' } : {}),
          },
        }),
      ).data;
      receiver().expectSecret(path, created.secret);
      hooks[format] = path;
    }
    const alertId = await raise(carer);
    await built().ctx.outbox.idle();
    const body = (format: string) => JSON.parse(receiver().at(hooks[format]!)[0]!.body);
    expect(body('slack').text).toContain('SOS');
    expect(body('teams').attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(body('ntfy')).toMatchObject({ priority: 5 });
    expect(body('pagerduty')).toMatchObject({
      routing_key: 'R0UTING',
      event_action: 'trigger',
      dedup_key: alertId,
      payload: { severity: 'critical' },
    });
  });

  it('private, loopback and non-HTTPS addresses are refused', async () => {
    const client = contractClient(built(), await signup(built()));
    for (const url of ['https://10.0.0.8/hook', 'https://localhost/hook', 'http://hooks.example.com/x']) {
      const res = await client.call(contracts.webhook.create, { body: { url, format: 'json' } });
      expect(res.statusCode).toBe(400);
    }
  });

  it('a webhook that hangs never holds ingestion', async () => {
    const { carer, path } = await carerWithHook();
    receiver().script(path, { hold: true });
    await raise(carer);
    const sending = built().ctx.outbox.idle();
    while (receiver().holding === 0) await new Promise((r) => setTimeout(r, 10));
    // While the receiver holds the request, ten more alerts are stored and answered.
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    for (let i = 0; i < 10; i += 1) {
      const res = await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' });
      expect(res.statusCode).toBe(202);
    }
    expect(receiver().holding).toBe(1);
    receiver().release();
    await sending;
    await built().ctx.outbox.idle();
  });

  it("webhooks that hang hold none of another channel's sends: the next alert's e-mail goes out meanwhile", async () => {
    const { ctx } = built();
    // One send in flight per channel: the hanging webhook takes the webhook channel's only slot.
    const outbox = new NotificationOutbox(ctx.db, [ctx.webhookChannel, ctx.alertMailer], built().app.log, {
      pollMs: 0,
      maxInFlight: 1,
    });
    const { carer, path } = await carerWithHook();
    receiver().script(path, { hold: true });
    await raise(carer);
    // A turn a second ahead: the messages its fanout step queues are due in that same turn.
    const soon = () => new Date(Date.now() + 1000);
    const sending = outbox.runOnce(soon());
    while (receiver().holding === 0) await new Promise((r) => setTimeout(r, 10));

    const reader = await signup(built());
    await verifyEmail(built(), reader);
    const optIn = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/alert-emails',
      headers: reader.auth,
      payload: { enabled: true },
    });
    expect(optIn.statusCode).toBe(200);
    await raise(reader);
    await outbox.runOnce(soon());
    const mail = mailsIn(outboxDir(ctx.config.dataDir), reader.user.email).filter((m) =>
      /x-vitalwatch-alert-id/i.test(m),
    );
    expect(mail).toHaveLength(1);
    expect(receiver().holding).toBe(1);
    receiver().release();
    await sending;
    await outbox.idle();
  });
});
