import { randomUUID } from 'node:crypto';
import { contracts } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { contractClient, dataOf } from './contract-client.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { alertRecord, PEER_ENDPOINTS, queueAlerts, usePushPeer, userWithBrowsers } from './push-fixtures.ts';
import { selfSignedCert } from './push-peer.ts';
import { receiverWebhookOptions, useWebhookReceiver } from './receiver-hooks.ts';

const identity = selfSignedCert();
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };

/**
 * What a channel writes after a message left (a browser's last success, a webhook's delivery
 * log) is bookkeeping: when the database refuses it (busy under load; here a trigger that raises),
 * the message still counts as sent. It is not sent a second time nor dead-lettered (bench:push,
 * three processes under load, found pushes that arrived twice and were then marked failed).
 */
describe.each(dbTargets())('bookkeeping after a send on $name', (target) => {
  const built = useTestApp(
    target,
    { vapid, ...PEER_ENDPOINTS, notifications: { pollMs: 0 } },
    {
      push: { ca: identity.cert, baseDelayMs: 10, maxDelayMs: 50 },
      webhooks: receiverWebhookOptions(identity),
    },
  );
  const peer = usePushPeer(identity);
  const receiver = useWebhookReceiver(identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
    await built().ctx.db.execute(
      sql.raw(`create function vw_test_refuse() returns trigger language plpgsql as $$
        begin raise exception 'bookkeeping refused by the test'; end $$`),
    );
  });
  afterEach(async () => {
    await built().ctx.db.execute(sql.raw('drop trigger if exists vw_test_refuse on push_subscriptions'));
    await built().ctx.db.execute(sql.raw('drop trigger if exists vw_test_refuse on webhook_deliveries'));
  });
  const refuse = (table: string, event: string) =>
    built().ctx.db.execute(
      sql.raw(
        `create trigger vw_test_refuse before ${event} on ${table} for each row execute function vw_test_refuse()`,
      ),
    );
  const jobsOf = (alertId: string) =>
    rawRows(
      built().ctx.db,
      sql`select kind, status from notification_jobs where alert_id = ${alertId}::uuid and kind in ('push', 'webhook')`,
      z.object({ kind: z.string(), status: z.string() }),
    );

  it("a push that left counts as sent when its browser's last success cannot be noted", async () => {
    const browser = peer().subscriber();
    const user = await userWithBrowsers(built(), browser);
    await refuse('push_subscriptions', 'update');
    const alert = alertRecord(randomUUID(), 'SOS');
    await queueAlerts(built(), [user.user._id], [alert]);
    await built().ctx.outbox.idle();
    expect(peer().requestsTo(browser.endpoint)).toHaveLength(1);
    expect(await jobsOf(alert._id)).toEqual([]);
  });

  it('a webhook the receiver took counts as sent when its delivery log row cannot be written', async () => {
    const carer = await signup(built());
    const path = `/bookkeeping-${randomUUID()}`;
    const made = dataOf(
      await contractClient(built(), carer).call(contracts.webhook.create, {
        body: { url: receiver().url(path), format: 'json' },
      }),
    ).data;
    receiver().expectSecret(path, made.secret);
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    await refuse('webhook_deliveries', 'insert');
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    await built().ctx.outbox.idle();
    const got = receiver().at(path);
    expect(got.map((r) => r.verified)).toEqual([true]);
    const [row] = await rawRows(
      built().ctx.db,
      sql`select id::text from alerts where device_id = ${device._id}::uuid`,
      z.object({ id: z.string() }),
    );
    expect(await jobsOf(row!.id)).toEqual([]);
  });
});
