import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { NotificationOutbox } from '../src/notification-outbox/outbox.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { dbTargets, type TestUser, verifyEmail } from './helpers.ts';
import { useOutboxApp, userWithBrowsers } from './push-fixtures.ts';
import { selfSignedCert } from './push-peer.ts';

const identity = selfSignedCert();
const SECOND = 1000;

interface TimelineEntry {
  kind: string;
  by: string | null;
  channel: string | null;
  ok: boolean | null;
  detail: string | null;
}

/**
 * The fallback ladder: a primary contact none of whose browsers reports a high-priority push
 * shown or opened within the device's wait (60 s by default) is tried on their next channel, once
 * across workers; a receipt or an acknowledgement stops it. Time is moved by the `now` each test
 * hands the outbox, so nobody waits a real minute.
 */
describe.each(dbTargets())('the fallback ladder on $name', (target) => {
  const { built, peer, admin: adminOf } = useOutboxApp(target, identity);

  /** A carer with one browser, an SOS from their device, and its push sent (not yet answered). */
  async function pushedSos(alarmSettings?: object) {
    const browser = peer().subscriber();
    const delivered = peer().delivered(browser.endpoint);
    const carer = await userWithBrowsers(built(), browser);
    // The e-mail rung writes only to a proved address.
    await verifyEmail(built(), carer);
    const device = await createDevice(built(), adminOf(), { users: [carer.user._id] });
    if (alarmSettings) {
      await built().ctx.db.execute(
        sql`update devices set alarm_settings = ${JSON.stringify(alarmSettings)}::jsonb where id = ${device._id}::uuid`,
      );
    }
    const sentAt = Date.now();
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    await built().ctx.outbox.runOnce(new Date(sentAt));
    await built().ctx.outbox.idle();
    const { receiptToken, alertId } = JSON.parse(browser.decrypt((await delivered).body));
    return { carer, alertId: alertId as string, receiptToken: receiptToken as string, sentAt };
  }

  const timeline = async (carer: TestUser, alertId: string) => {
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${alertId}`,
      headers: carer.auth,
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.timeline as TimelineEntry[];
  };
  const byMail = (entries: TimelineEntry[]) =>
    entries.filter((e) => e.channel === 'email').map((e) => [e.kind, e.by, e.ok, e.detail]);
  /** The browser's service worker reports the push shown (POST /push/receipt). */
  const reportShown = async (token: string) => {
    const shown = await built().app.inject({
      method: 'POST',
      url: '/api/v1/push/receipt',
      payload: { token, event: 'shown' },
    });
    expect(shown.statusCode).toBe(200);
  };
  const turnAt = async (ms: number) => {
    await built().ctx.outbox.runOnce(new Date(ms));
    await built().ctx.outbox.idle();
  };

  it('no receipt within 60 s: the person is tried by e-mail, once, and the timeline says why', async () => {
    const { carer, alertId, sentAt } = await pushedSos();
    await turnAt(sentAt + 59 * SECOND);
    expect(byMail(await timeline(carer, alertId))).toEqual([]);

    await turnAt(sentAt + 61 * SECOND);
    const name = carer.user.username;
    expect(byMail(await timeline(carer, alertId))).toEqual([
      ['fallback', name, null, 'no receipt within 60 s'],
      ['notified', name, true, null],
    ]);
    // E-mail was the last channel this person has: the ladder is over.
    await turnAt(sentAt + 200 * SECOND);
    expect(byMail(await timeline(carer, alertId))).toHaveLength(2);
  });

  it('a browser that reported the push shown stops the ladder', async () => {
    const { carer, alertId, receiptToken, sentAt } = await pushedSos();
    await reportShown(receiptToken);
    await turnAt(sentAt + 61 * SECOND);
    expect(byMail(await timeline(carer, alertId))).toEqual([]);
  });

  it('an acknowledged alert stops the ladder', async () => {
    const { carer, alertId, sentAt } = await pushedSos();
    const ack = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/acknowledge/${alertId}`,
      headers: carer.auth,
    });
    expect(ack.statusCode).toBe(200);
    await turnAt(sentAt + 61 * SECOND);
    expect(byMail(await timeline(carer, alertId))).toEqual([]);
  });

  it("the wait is the device's own setting", async () => {
    const { carer, alertId, sentAt } = await pushedSos({ escalation: { fallbackAfterSeconds: 15 } });
    await turnAt(sentAt + 16 * SECOND);
    expect(byMail(await timeline(carer, alertId))).toEqual([
      ['fallback', carer.user.username, null, 'no receipt within 15 s'],
      ['notified', carer.user.username, true, null],
    ]);
  });

  it('workers turning at once take each rung once', async () => {
    const { carer, alertId, sentAt } = await pushedSos();
    const workers = [0, 1, 2].map(
      () =>
        new NotificationOutbox(built().ctx.db, [built().ctx.push, built().ctx.alertMailer], built().app.log, {
          pollMs: 0,
        }),
    );
    const at = new Date(sentAt + 61 * SECOND);
    await Promise.all(workers.map((w) => w.runOnce(at)));
    await built().ctx.outbox.idle();
    expect(byMail(await timeline(carer, alertId)).map(([kind]) => kind)).toEqual(['fallback', 'notified']);
  });

  it('ladders due together climb in one batch, each person to their own next channel', async () => {
    const browsers = [0, 1, 2].map(() => peer().subscriber());
    const delivered = browsers.map((b) => peer().delivered(b.endpoint));
    const [mailed, answered, unreachable] = await Promise.all(
      browsers.map((b) => userWithBrowsers(built(), b)),
    );
    await verifyEmail(built(), mailed!);
    await verifyEmail(built(), answered!);
    const carers = [mailed!, answered!, unreachable!];
    const device = await createDevice(built(), adminOf(), { users: carers.map((c) => c.user._id) });
    const sentAt = Date.now();
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'FALL' })).statusCode).toBe(202);
    await turnAt(sentAt);
    const [, answeredPush] = await Promise.all(delivered);
    const { receiptToken, alertId } = JSON.parse(browsers[1]!.decrypt(answeredPush!.body));
    await reportShown(receiptToken);

    await turnAt(sentAt + 61 * SECOND);
    // The alert's timeline is everyone's: only the one who neither answered nor lacked an address was mailed.
    expect(byMail(await timeline(answered!, alertId))).toEqual([
      ['fallback', mailed!.user.username, null, 'no receipt within 60 s'],
      ['notified', mailed!.user.username, true, null],
    ]);
    // The answered and the unreachable ladders ended; the mailed one waits for its next rung.
    const left = await rawRows(
      built().ctx.db,
      sql`select user_id::text, payload->'tried' as tried from notification_jobs
        where kind = 'fallback' and alert_id = ${alertId}::uuid`,
      z.object({ user_id: z.string(), tried: z.array(z.string()) }),
    );
    expect(left).toEqual([{ user_id: mailed!.user._id, tried: ['sms', 'email'] }]);
  });
});
