import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { NotificationOutbox } from '../src/notification-outbox/outbox.ts';
import { claimDeliveries, settleDeliveries } from '../src/notification-outbox/repository.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { dbTargets, type TestUser } from './helpers.ts';
import { useOutboxApp, userWithBrowsers } from './push-fixtures.ts';
import { type Subscriber, selfSignedCert } from './push-peer.ts';

const identity = selfSignedCert();

const jobState = z.object({
  kind: z.string(),
  status: z.string(),
  attempts: z.number(),
  last_error: z.string().nullable(),
});

/**
 * The notification outbox: every push of an alert is a row written with the alert, sent by a
 * worker that claims it under a lease, retried with backoff, dead-lettered after its last try, and
 * recorded on the alert's timeline.
 */
describe.each(dbTargets())('the notification outbox on $name', (target) => {
  const { built, peer, admin: adminOf } = useOutboxApp(target, identity);

  /** A carer of a new device with one browser, and an SOS the device raised (committed, not yet sent). */
  async function sosFor(browser: Subscriber) {
    const carer = await userWithBrowsers(built(), browser);
    const device = await createDevice(built(), adminOf(), { users: [carer.user._id] });
    const res = await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
    expect(res.statusCode).toBe(202);
    const latest = await built().app.inject({
      method: 'POST',
      url: '/api/v1/alert/latest/1',
      headers: carer.auth,
    });
    const alertId: string = latest.json().data.alerts[0]._id;
    return { carer, alertId };
  }

  const jobsOf = (alertId: string) =>
    rawRows(
      built().ctx.db,
      sql`select kind, status, attempts, last_error from notification_jobs
        where alert_id = ${alertId}::uuid and kind <> 'fallback' order by kind`,
      jobState,
    );
  const pushEvents = async (carer: TestUser, alertId: string) => {
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${alertId}`,
      headers: carer.auth,
    });
    expect(res.statusCode).toBe(200);
    return (
      res.json().data.timeline as Array<{
        kind: string;
        channel: string | null;
        ok: boolean | null;
        detail: string | null;
      }>
    ).filter((e) => e.kind === 'notified' && e.channel === 'push');
  };

  it('the push of a raised alert is a job row committed with it, gone once sent and on the timeline', async () => {
    const browser = peer().subscriber();
    const { carer, alertId } = await sosFor(browser);
    // Nothing is held in memory: the promise to notify is in the database with the alert.
    expect(await jobsOf(alertId)).toEqual([
      { kind: 'fanout', status: 'queued', attempts: 0, last_error: null },
    ]);
    expect(peer().requestsTo(browser.endpoint)).toHaveLength(0);

    await built().ctx.outbox.idle();
    expect(peer().requestsTo(browser.endpoint)).toHaveLength(1);
    expect(await jobsOf(alertId)).toEqual([]);
    expect(await pushEvents(carer, alertId)).toEqual([expect.objectContaining({ ok: true, detail: null })]);
  });

  it('a push service answering 500 is tried again with backoff, and the message is sent once it recovers', async () => {
    const browser = peer().subscriber();
    peer().script(browser.endpoint, { status: 500 }, { status: 503 });
    const { carer, alertId } = await sosFor(browser);
    await built().ctx.outbox.idle();
    expect(peer().requestsTo(browser.endpoint)).toHaveLength(3);
    expect(await jobsOf(alertId)).toEqual([]);
    expect(await pushEvents(carer, alertId)).toEqual([expect.objectContaining({ ok: true })]);
  });

  it('after its last try a message is dead-lettered: kept with its error, and the failure is on the timeline', async () => {
    const browser = peer().subscriber();
    peer().script(browser.endpoint, ...Array.from({ length: 4 }, () => ({ status: 500 })));
    const { carer, alertId } = await sosFor(browser);
    await built().ctx.outbox.idle();
    expect(peer().requestsTo(browser.endpoint)).toHaveLength(4);
    expect(await jobsOf(alertId)).toEqual([
      { kind: 'push', status: 'dead', attempts: 4, last_error: 'push service answered 500' },
    ]);
    expect(await pushEvents(carer, alertId)).toEqual([
      expect.objectContaining({ ok: false, detail: 'push service answered 500' }),
    ]);
  });

  it('a claimed message whose worker died is sent by another once the lease ends, and the dead worker cannot record it', async () => {
    const browser = peer().subscriber();
    const { carer, alertId } = await sosFor(browser);
    const { db } = built().ctx;
    // Expand the fanout (a worker with no room to send), then claim the message as a worker that dies before sending it.
    const expander = new NotificationOutbox(db, [built().ctx.push], built().app.log, {
      pollMs: 0,
      maxInFlight: 0,
    });
    expect(await expander.runOnce()).toBe(1);
    const [dead] = await claimDeliveries(db, new Date(), 60_000, 10);
    expect(dead).toMatchObject({ kind: 'push', attempts: 1 });
    // While the lease holds nobody else takes it.
    expect(await built().ctx.outbox.runOnce()).toBe(0);
    // After it, this worker does (the fallback ladders of this file's unanswered alerts climb too).
    await built().ctx.outbox.runOnce(new Date(Date.now() + 61_000));
    expect(peer().requestsTo(browser.endpoint)).toHaveLength(1);
    expect(await jobsOf(alertId)).toEqual([]);
    // The dead worker's late outcome (its attempt number is stale) changes nothing.
    await db.transaction((tx) =>
      settleDeliveries(tx, [{ job: dead!, kind: 'dead', detail: 'stale' }], new Date()),
    );
    expect(await pushEvents(carer, alertId)).toEqual([expect.objectContaining({ ok: true })]);
  });

  it('two workers turning at once send each message once', async () => {
    const browsers = Array.from({ length: 6 }, () => peer().subscriber());
    const alerts = [];
    for (const b of browsers) alerts.push(await sosFor(b));
    const second = new NotificationOutbox(built().ctx.db, [built().ctx.push], built().app.log, {
      pollMs: 0,
      batchSize: 2,
    });
    await Promise.all([built().ctx.outbox.idle(), second.idle(), second.runOnce()]);
    for (const b of browsers) expect(peer().requestsTo(b.endpoint)).toHaveLength(1);
    for (const { carer, alertId } of alerts) expect(await pushEvents(carer, alertId)).toHaveLength(1);
  });

  it('the service worker reports a message shown, then opened: each once, on the timeline by person', async () => {
    const browser = peer().subscriber();
    const delivered = peer().delivered(browser.endpoint);
    const { carer, alertId } = await sosFor(browser);
    await built().ctx.outbox.idle();
    const { receiptToken } = JSON.parse(browser.decrypt((await delivered).body));
    const report = (payload: Record<string, string>) =>
      built().app.inject({ method: 'POST', url: '/api/v1/push/receipt', payload });
    expect((await report({ token: receiptToken, event: 'shown' })).statusCode).toBe(200);
    expect((await report({ token: receiptToken, event: 'shown' })).statusCode).toBe(200);
    expect((await report({ token: receiptToken, event: 'opened' })).statusCode).toBe(200);
    const forged = await report({ token: `${receiptToken}x`, event: 'shown' });
    expect(forged.statusCode).toBe(401);
    const bad = await report({ token: receiptToken, event: 'read' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('event must be shown or opened');

    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${alertId}`,
      headers: carer.auth,
    });
    const receipts = (
      res.json().data.timeline as Array<{ kind: string; by: string; channel: string; detail: null }>
    )
      .filter((e) => e.kind === 'shown' || e.kind === 'opened')
      .map((e) => [e.kind, e.by, e.channel, e.detail]);
    expect(receipts).toEqual([
      ['shown', carer.user.username, 'push', null],
      ['opened', carer.user.username, 'push', null],
    ]);
  });
});
