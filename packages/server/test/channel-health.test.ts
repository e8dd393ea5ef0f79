import { CHANNEL_CHECK_TAG, contracts } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { z } from 'zod';
import { ChannelChecks } from '../src/channel-health/checks.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { outboxDir } from '../src/mail/mailer.ts';
import { contractClient, dataOf } from './contract-client.ts';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp, verifyEmail } from './helpers.ts';
import { mailsIn } from './outbox-mail.ts';
import { browsersOf, PEER_ENDPOINTS, usePushPeer, userWithBrowsers } from './push-fixtures.ts';
import { selfSignedCert } from './push-peer.ts';
import { useWebhookReceiver } from './receiver-hooks.ts';

const identity = selfSignedCert();
const HOUR = 3_600_000;

/**
 * Channel health: a receipt marks the browser it came from as receiving; a browser silent for a
 * day gets one low-priority check a day, once however many workers look; two unanswered checks
 * mark it not receiving, its person is told once by e-mail and webhook, and the admin dashboard,
 * the board and the care circle show who can no longer be reached. Time is moved by the `now`
 * each test hands the sweep, so nobody waits a day.
 */
describe.each(dbTargets())('channel health on $name', (target) => {
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };
  const built = useTestApp(
    target,
    { vapid, ...PEER_ENDPOINTS, notifications: { pollMs: 0 } },
    {
      push: { ca: identity.cert, baseDelayMs: 10, maxDelayMs: 50 },
      webhooks: { ca: identity.cert, baseDelayMs: 10, maxDelayMs: 50, requestTimeoutMs: 2000 },
      channelChecks: { sweepMs: 0 },
    },
  );
  const peer = usePushPeer(identity);
  const receiver = useWebhookReceiver(identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** Sweep at `now` and send what it queued. */
  const sweepAt = async (now: number) => {
    await built().ctx.channelChecks.sweep(new Date(now));
    await built().ctx.outbox.idle();
  };
  /** The decrypted check messages this browser got. */
  const checksTo = (browser: ReturnType<ReturnType<typeof peer>['subscriber']>) =>
    peer()
      .requestsTo(browser.endpoint)
      .map((r) => ({ urgency: r.headers.urgency, ...JSON.parse(browser.decrypt(r.body)) }))
      .filter((m) => m.tag === CHANNEL_CHECK_TAG);
  const receipt = (token: string) =>
    built().app.inject({ method: 'POST', url: '/api/v1/push/receipt', payload: { token, event: 'shown' } });

  it('a receipt marks the browser it came from as receiving, and only that one', async () => {
    const [one, two] = [peer().subscriber(), peer().subscriber()];
    const carer = await userWithBrowsers(built(), one, two);
    await sweepAt(Date.now() + 25 * HOUR);
    const [check] = checksTo(one);
    expect((await receipt(check.receiptToken)).statusCode).toBe(200);
    const browsers = await browsersOf(built(), carer);
    const endpointOf = async (id: string) =>
      (
        await rawRows(
          built().ctx.db,
          sql`select endpoint from push_subscriptions where id = ${id}::uuid`,
          z.object({ endpoint: z.string() }),
        )
      )[0]?.endpoint;
    const stamped = await Promise.all(
      browsers.map(async (b) => [await endpointOf(b._id), b.lastReceiptAt !== null]),
    );
    expect(Object.fromEntries(stamped)).toEqual({ [one.endpoint]: true, [two.endpoint]: false });
  });

  it('a browser silent for a day gets one brief low-priority check a day, once across workers', async () => {
    const browser = peer().subscriber();
    await userWithBrowsers(built(), browser);
    const t0 = Date.now();
    await sweepAt(t0 + 23 * HOUR);
    expect(checksTo(browser)).toHaveLength(0);

    const ctx = built().ctx;
    const workers = [0, 1, 2].map(
      () => new ChannelChecks(ctx.db, ctx.push, ctx.webhookChannel, 'https://x.test/p', built().app.log),
    );
    await Promise.all(workers.map((w) => w.sweep(new Date(t0 + 25 * HOUR))));
    await ctx.outbox.idle();
    const checks = checksTo(browser);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ urgency: 'low', priority: 'low', tag: CHANNEL_CHECK_TAG });

    await sweepAt(t0 + 30 * HOUR);
    expect(checksTo(browser)).toHaveLength(1);
    await sweepAt(t0 + 50 * HOUR);
    expect(checksTo(browser)).toHaveLength(2);
  });

  it('checks turned off in Profile: no check', async () => {
    const browser = peer().subscriber();
    const carer = await userWithBrowsers(built(), browser);
    const off = await contractClient(built(), carer).call(contracts.user.setChannelChecks, {
      body: { enabled: false },
    });
    expect(dataOf(off).data.user.channelChecks).toBe(false);
    await sweepAt(Date.now() + 25 * HOUR);
    expect(checksTo(browser)).toHaveLength(0);
  });

  it('two unanswered checks: not receiving, told once by e-mail, webhook and the browser that receives; a receipt lifts it', async () => {
    const [browser, other] = [peer().subscriber(), peer().subscriber()];
    const carer = await userWithBrowsers(built(), browser, other);
    await verifyEmail(built(), carer);
    const path = `/notice-${carer.user._id}`;
    const hook = dataOf(
      await contractClient(built(), carer).call(contracts.webhook.create, {
        body: { url: receiver().url(path), format: 'json' },
      }),
    ).data;
    receiver().expectSecret(path, hook.secret);
    const mails = () =>
      mailsIn(outboxDir(built().ctx.config.dataDir), carer.user.email).filter((m) =>
        m.includes('stopped receiving'),
      );
    const notices = () =>
      peer()
        .requestsTo(other.endpoint)
        .map((r) => JSON.parse(other.decrypt(r.body)))
        .filter((m) => m.tag === 'vitalwatch:channel-notice');
    const marks = async () =>
      Object.fromEntries(
        (await browsersOf(built(), carer)).map((b) => [b._id, b.notReceivingSince !== null]),
      );
    /** Sweep, then the other browser shows its check (it receives). */
    const sweepAndAnswer = async (now: number) => {
      await sweepAt(now);
      const check = checksTo(other).at(-1);
      expect((await receipt(check.receiptToken)).statusCode).toBe(200);
    };
    const t0 = Date.now();
    await sweepAndAnswer(t0 + 25 * HOUR);
    await sweepAndAnswer(t0 + 50 * HOUR);
    expect(Object.values(await marks())).toEqual([false, false]);
    expect(mails()).toHaveLength(0);

    await sweepAndAnswer(t0 + 75 * HOUR);
    expect(Object.values(await marks()).sort()).toEqual([false, true]);
    expect(mails()).toHaveLength(1);
    const told = receiver().at(path);
    expect(told).toHaveLength(1);
    expect(told[0]?.verified).toBe(true);
    expect(JSON.parse(told[0]!.body).alert).toMatchObject({ alertType: 'CHANNEL_NOT_RECEIVING' });
    expect(notices()).toHaveLength(1);

    await sweepAndAnswer(t0 + 100 * HOUR);
    expect(mails()).toHaveLength(1);
    expect(receiver().at(path)).toHaveLength(1);
    expect(notices()).toHaveLength(1);

    const newest = checksTo(browser).at(-1);
    expect((await receipt(newest.receiptToken)).statusCode).toBe(200);
    expect(Object.values(await marks())).toEqual([false, false]);
  });

  it('the admin dashboard counts contacts without a working channel; the board and the circle flag them', async () => {
    const browser = peer().subscriber();
    const carer = await userWithBrowsers(built(), browser);
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    const health = async () =>
      (await built().app.inject({ method: 'POST', url: '/api/v1/admin/stats', headers: admin.auth })).json()
        .data.channelHealth as { contactsWithoutChannel: number; devicesWithoutChannel: number };
    const flagged = async () => {
      const board = await built().app.inject({
        method: 'GET',
        // As a board opening now asks: built after the change just made (a young build is reused otherwise).
        url: `/api/v1/board/snapshot?after=${encodeURIComponent(new Date().toISOString())}`,
        headers: carer.auth,
      });
      const tile = board.json().data.devices.find((d: { _id: string }) => d._id === device._id);
      return tile.noWorkingChannel === true;
    };
    const line = async () => {
      const circle = dataOf(
        await contractClient(built(), carer).call(contracts.circle.list, {
          params: { deviceId: device._id },
        }),
      ).data.circle;
      const me = circle.members.find((m) => m.userId === carer.user._id);
      return [me?.browsersNotReceiving, me?.workingChannel];
    };
    const before = await health();
    expect(await flagged()).toBe(false);
    expect(await line()).toEqual([0, true]);

    const t0 = Date.now();
    for (const hours of [25, 50, 75]) await sweepAt(t0 + hours * HOUR);
    const after = await health();
    expect(after.contactsWithoutChannel - before.contactsWithoutChannel).toBe(1);
    expect(after.devicesWithoutChannel - before.devicesWithoutChannel).toBe(1);
    expect(await flagged()).toBe(true);
    expect(await line()).toEqual([1, false]);

    // A verified phone number is a working channel, unless it replied STOP.
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    await built().ctx.db.execute(
      sql`insert into sms_numbers (user_id, phone, verified_at) values (${carer.user._id}::uuid, ${phone}, now())`,
    );
    expect(await flagged()).toBe(false);
    await built().ctx.db.execute(sql`insert into sms_opt_outs (phone) values (${phone})`);
    expect(await flagged()).toBe(true);

    // A verified e-mail is a working channel: the device is reachable again.
    await verifyEmail(built(), carer);
    expect((await health()).devicesWithoutChannel).toBe(before.devicesWithoutChannel);
    expect(await flagged()).toBe(false);
  });
});
