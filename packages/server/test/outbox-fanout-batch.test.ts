import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import type { NotificationOutbox } from '../src/notification-outbox/outbox.ts';
import { createDevice } from './device-helpers.ts';
import { dbTargets } from './helpers.ts';
import { alertRecord, queueAlerts, useOutboxApp, userWithBrowsers } from './push-fixtures.ts';
import { type Subscriber, selfSignedCert } from './push-peer.ts';

const identity = selfSignedCert();

/** The outbox's step that turns queued fanouts into messages, run once now. */
const expandFanouts = (outbox: NotificationOutbox) =>
  (outbox as unknown as { expandDueFanouts(now: Date): Promise<number> }).expandDueFanouts(new Date());

/**
 * A burst of alerts is expanded into messages in a few queries for the whole batch, not some per
 * alert and channel (bench:push saw one process expand 55 alerts/s against 200 coming in), and
 * each alert's messages still go to its own contacts, their snoozes applied.
 */
describe.each(dbTargets())('the outbox expands a batch of alerts at once, on $name', (target) => {
  const { built, peer, admin } = useOutboxApp(target, identity);

  async function carerOfNewDevice(browser: Subscriber) {
    const carer = await userWithBrowsers(built(), browser);
    const device = await createDevice(built(), admin(), { users: [carer.user._id] });
    return { carer, device };
  }

  it("each alert of a batch reaches its own device's carers, a snooze silencing only its snoozer", async () => {
    const [first, second] = [peer().subscriber(), peer().subscriber()];
    const a = await carerOfNewDevice(first);
    const b = await carerOfNewDevice(second);
    await built().ctx.db.execute(
      sql`insert into alert_snoozes (user_id, device_id, alert_type, until)
        values (${b.carer.user._id}::uuid, ${b.device._id}::uuid, 'HEART_RATE_HIGH', now() + interval '1 hour')`,
    );
    const ofA = [alertRecord(a.device._id, 'SOS'), alertRecord(a.device._id, 'HEART_RATE_HIGH')];
    const ofB = [alertRecord(b.device._id, 'SOS'), alertRecord(b.device._id, 'HEART_RATE_HIGH')];
    await queueAlerts(built(), [a.carer.user._id], ofA);
    await queueAlerts(built(), [b.carer.user._id], ofB);

    expect(await expandFanouts(built().ctx.outbox)).toBe(4);
    await built().ctx.outbox.idle();
    const alertIds = (browser: Subscriber) =>
      peer()
        .requestsTo(browser.endpoint)
        .map((r) => JSON.parse(browser.decrypt(r.body)).alertId)
        .sort();
    expect(alertIds(first)).toEqual(ofA.map((x) => x._id).sort());
    // The medium alert B snoozed is not pushed to B; the SOS is (high priority reaches everyone).
    expect(alertIds(second)).toEqual([ofB[0]!._id]);
  });

  it('a fanout stored within the millisecond of the look is due at that look', async () => {
    const { carer, device } = await carerOfNewDevice(peer().subscriber());
    await queueAlerts(built(), [carer.user._id], [alertRecord(device._id, 'SOS')]);
    // The database stamps microseconds, a Date only milliseconds: a look woken by the commit may
    // name the same millisecond as the job's stamp, and must still find it.
    const [row] = await rawRows(
      built().ctx.db,
      sql`update notification_jobs set run_at = date_trunc('milliseconds', now()) + interval '600 microseconds'
        where kind = 'fanout' and status = 'queued'
        returning (extract(epoch from date_trunc('milliseconds', run_at)) * 1000)::bigint::text as ms`,
      z.object({ ms: z.string() }),
    );
    const sameMillisecond = new Date(Number(row!.ms));
    const outbox = built().ctx.outbox as unknown as { expandDueFanouts(now: Date): Promise<number> };
    expect(await outbox.expandDueFanouts(sameMillisecond)).toBe(1);
    await built().ctx.outbox.idle();
  });

  it.runIf(target.name === 'postgres')('the same queries expand 2 alerts as 12', async () => {
    const carers: Array<Awaited<ReturnType<typeof carerOfNewDevice>>> = [];
    for (let i = 0; i < 12; i++) carers.push(await carerOfNewDevice(peer().subscriber()));
    const queriesToExpand = async (count: number) => {
      for (const { carer, device } of carers.slice(0, count)) {
        await queueAlerts(built(), [carer.user._id], [alertRecord(device._id, 'SOS')]);
      }
      const queries = vi.spyOn(pg.Client.prototype, 'query');
      try {
        expect(await expandFanouts(built().ctx.outbox)).toBe(count);
        // The expansion is one transaction on one connection: count that connection's queries (a
        // timer of the app's, an offline sweep say, may query on another meanwhile).
        const byConnection = new Map<unknown, number>();
        for (const client of queries.mock.contexts)
          byConnection.set(client, (byConnection.get(client) ?? 0) + 1);
        return Math.max(...byConnection.values());
      } finally {
        queries.mockRestore();
        await built().ctx.outbox.idle();
      }
    };
    const few = await queriesToExpand(2);
    const many = await queriesToExpand(12);
    expect(many).toBe(few);
  });
});
