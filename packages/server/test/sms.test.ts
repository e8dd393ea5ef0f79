import { SMS_CODE_ATTEMPTS, SMS_CODE_SENDS, SMS_MESSAGES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { twilioSignature } from '../src/sms/twilio.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { PEER_ENDPOINTS, usePushPeer, userWithBrowsers } from './push-fixtures.ts';
import { selfSignedCert } from './push-peer.ts';
import { useTwilioReceiver } from './receiver-hooks.ts';
import { TWILIO_TEST } from './twilio-receiver.ts';

const identity = selfSignedCert();
const PUBLIC_URL = 'https://vitalwatch.example';
const SECOND = 1000;
let numbers = 0;
/** A phone number no other test uses. */
const nextPhone = () => {
  numbers += 1;
  return `+1555010${String(numbers).padStart(4, '0')}`;
};

interface TimelineEntry {
  kind: string;
  channel: string | null;
  ok: boolean | null;
  detail: string | null;
}

/**
 * Alert SMS against a local HTTPS service that speaks Twilio's Messages API (path, Basic auth and
 * form fields checked): a number is verified by a code it receives; a high alert reaches a
 * verified number; 5xx is tried again then dead-lettered; 21610 and a signed STOP opt the number
 * out; the fallback ladder's SMS rung goes out when the push has no receipt in time.
 */
describe.each(dbTargets())('alert SMS on $name', (target) => {
  const twilio = useTwilioReceiver(identity);
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };
  const built = useTestApp(
    target,
    {
      vapid,
      ...PEER_ENDPOINTS,
      notifications: { pollMs: 0 },
      publicUrl: PUBLIC_URL,
      // Read when the app is built, once the receiver listens.
      get twilio() {
        return { ...TWILIO_TEST, apiUrl: twilio().origin };
      },
    },
    {
      push: { ca: identity.cert, baseDelayMs: 10, maxDelayMs: 50 },
      sms: { ca: identity.cert, baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 3, requestTimeoutMs: 2000 },
    },
  );
  const peer = usePushPeer(identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const call = (user: TestUser, name: string, payload?: object) =>
    built().app.inject({
      method: 'POST',
      url: `/api/v1/sms/${name}`,
      headers: user.auth,
      ...(payload ? { payload } : {}),
    });

  /** A person whose number is verified (by the code the receiver got). */
  async function verified(user?: TestUser) {
    const carer = user ?? (await signup(built()));
    const phone = nextPhone();
    expect((await call(carer, 'number', { phone })).statusCode).toBe(200);
    const res = await call(carer, 'verify', { code: twilio().codeFor(phone) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ verified: true, optedOut: false });
    return { carer, phone };
  }

  async function raise(carer: TestUser) {
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    const sentAt = Date.now();
    expect((await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    const [row] = await rawRows(
      built().ctx.db,
      sql`select id::text from alerts where device_id = ${device._id}::uuid`,
      z.object({ id: z.string() }),
    );
    return { alertId: row!.id, device, sentAt };
  }

  const bySms = async (carer: TestUser, alertId: string) => {
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/alert/timeline/${alertId}`,
      headers: carer.auth,
    });
    return (res.json().data.timeline as TimelineEntry[])
      .filter((e) => e.channel === 'sms')
      .map((e) => [e.kind, e.ok, e.detail]);
  };
  const alertTexts = (phone: string) =>
    twilio()
      .to(phone)
      .filter((m) => m.body.startsWith('VitalWatch HIGH'));

  it('a code sent by SMS verifies the number; the status masks it; the code is kept hashed', async () => {
    const carer = await signup(built());
    const phone = nextPhone();
    const set = await call(carer, 'number', { phone });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toEqual({
      configured: true,
      phone: `+15${'•'.repeat(phone.length - 7)}${phone.slice(-4)}`,
      verified: false,
      optedOut: false,
      codePending: true,
    });
    const [sent] = twilio().to(phone);
    expect(sent?.from).toBe(TWILIO_TEST.from);
    const code = twilio().codeFor(phone);
    const [stored] = await rawRows(
      built().ctx.db,
      sql`select code_hash from sms_numbers where user_id = ${carer.user._id}::uuid`,
      z.object({ code_hash: z.string() }),
    );
    expect(stored?.code_hash).not.toContain(code);

    const wrong = await call(carer, 'verify', { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().issues).toEqual([{ path: 'code', message: SMS_MESSAGES.wrongCode }]);
    const right = await call(carer, 'verify', { code });
    expect(right.json().data).toMatchObject({ verified: true, codePending: false });
    const removed = await call(carer, 'remove');
    expect(removed.json().data).toMatchObject({ phone: null, verified: false });
  });

  it('a number or a code in the wrong form gets a 400 naming the field', async () => {
    const carer = await signup(built());
    const badPhone = await call(carer, 'number', { phone: '0123 456' });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().issues[0].path).toBe('phone');
    const badCode = await call(carer, 'verify', { code: '12ab' });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().issues[0].path).toBe('code');
  });

  it('an expired code is refused', async () => {
    const carer = await signup(built());
    const phone = nextPhone();
    await call(carer, 'number', { phone });
    await built().ctx.db.execute(
      sql`update sms_numbers set code_expires_at = now() - interval '1 second' where user_id = ${carer.user._id}::uuid`,
    );
    const res = await call(carer, 'verify', { code: twilio().codeFor(phone) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SMS_MESSAGES.codeExpired);
  });

  it(`after ${SMS_CODE_ATTEMPTS} wrong codes even the right one is refused`, async () => {
    const carer = await signup(built());
    const phone = nextPhone();
    await call(carer, 'number', { phone });
    const code = twilio().codeFor(phone);
    const other = code === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < SMS_CODE_ATTEMPTS; i += 1)
      answers.push((await call(carer, 'verify', { code: other })).json().message);
    expect(answers.at(0)).toBe(SMS_MESSAGES.wrongCode);
    expect(answers.at(-1)).toBe(SMS_MESSAGES.noAttemptsLeft);
    const res = await call(carer, 'verify', { code });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SMS_MESSAGES.noAttemptsLeft);
  });

  it(`codes are sent ${SMS_CODE_SENDS.limit} times an hour at most, removing the number or not`, async () => {
    const carer = await signup(built());
    const phone = nextPhone();
    for (let i = 0; i < SMS_CODE_SENDS.limit - 1; i += 1)
      expect((await call(carer, 'number', { phone })).statusCode).toBe(200);
    await call(carer, 'remove');
    expect((await call(carer, 'number', { phone })).statusCode).toBe(200);
    const refused = await call(carer, 'number', { phone });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(twilio().to(phone)).toHaveLength(SMS_CODE_SENDS.limit);
  });

  it('a high alert reaches a verified number in one SMS with its priority, title, device and link', async () => {
    const { carer, phone } = await verified();
    const { alertId, device } = await raise(carer);
    await built().ctx.outbox.idle();
    const [text] = alertTexts(phone);
    expect(text?.body).toContain(device.deviceName);
    expect(text?.body).toContain(`${PUBLIC_URL}/dashboard/alerts`);
    expect(text!.body.length).toBeLessThanOrEqual(160);
    expect(await bySms(carer, alertId)).toEqual([['notified', true, null]]);
  });

  it('5xx and 429 are tried again with backoff; after the last try the SMS is dead-lettered and the timeline says so', async () => {
    const { carer, phone } = await verified();
    twilio().script(phone, { status: 500 }, { status: 429 }, { status: 503 });
    const { alertId } = await raise(carer);
    await built().ctx.outbox.idle();
    expect(twilio().tries.filter((m) => m.to === phone && m.body.startsWith('VitalWatch HIGH'))).toHaveLength(
      3,
    );
    expect(alertTexts(phone)).toHaveLength(0);
    const [entry] = await bySms(carer, alertId);
    expect(entry?.slice(0, 2)).toEqual(['notified', false]);
    expect(entry?.[2]).toContain('503');
    const dead = await rawRows(
      built().ctx.db,
      sql`select status from notification_jobs where kind = 'sms' and target = ${phone}`,
      z.object({ status: z.string() }),
    );
    expect(dead).toEqual([{ status: 'dead' }]);
  });

  it('a provider that does not answer within the time-out is tried again', async () => {
    const { carer, phone } = await verified();
    twilio().script(phone, { status: 0, hold: true });
    const { alertId } = await raise(carer);
    await built().ctx.outbox.idle();
    expect(twilio().tries.filter((m) => m.to === phone && m.body.startsWith('VitalWatch HIGH'))).toHaveLength(
      2,
    );
    expect(alertTexts(phone)).toHaveLength(1);
    expect(await bySms(carer, alertId)).toEqual([['notified', true, null]]);
  });

  it('an SMS queued for a number removed since is not sent', async () => {
    const { carer, phone } = await verified();
    const { alertId } = await raise(carer);
    await built().ctx.db.execute(
      sql`insert into notification_jobs (kind, alert_id, step, user_id, target, payload)
        values ('sms', ${alertId}::uuid, 1, ${carer.user._id}::uuid, ${phone},
          ${JSON.stringify({ phone, body: 'VitalWatch HIGH: queued before removal' })}::jsonb)`,
    );
    await call(carer, 'remove');
    await built().ctx.outbox.idle();
    expect(
      twilio()
        .to(phone)
        .filter((m) => m.body.includes('queued before removal')),
    ).toHaveLength(0);
    expect(await bySms(carer, alertId)).toContainEqual(['notified', false, 'the number was removed']);
  });

  it('a send refused with 21610 marks the number opted out, and it is not tried again', async () => {
    const { carer, phone } = await verified();
    twilio().script(phone, { status: 400, code: 21610 });
    await raise(carer);
    await built().ctx.outbox.idle();
    expect(twilio().tries.filter((m) => m.to === phone)).toHaveLength(2);
    expect((await call(carer, 'status')).json().data).toMatchObject({ verified: true, optedOut: true });
    const test = await call(carer, 'test');
    expect(test.statusCode).toBe(400);
    expect(test.json().message).toBe(SMS_MESSAGES.optedOut);
  });

  const inbound = (params: Record<string, string>, signature: string) =>
    built().app.inject({
      method: 'POST',
      url: '/api/v1/sms/inbound/twilio',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      payload: new URLSearchParams(params).toString(),
    });
  const signed = (params: Record<string, string>) =>
    twilioSignature(TWILIO_TEST.authToken, `${PUBLIC_URL}/api/v1/sms/inbound/twilio`, params);

  it('a signed STOP opts the number out and START back in; a wrong signature gets 403', async () => {
    const { carer, phone } = await verified();
    const stop = { MessageSid: 'SM1', From: phone, To: TWILIO_TEST.from, Body: ' stop ' };
    expect((await inbound(stop, signed({ ...stop, Body: 'STOP' }))).statusCode).toBe(403);
    expect((await call(carer, 'status')).json().data.optedOut).toBe(false);

    expect((await inbound(stop, signed(stop))).statusCode).toBe(200);
    expect((await call(carer, 'status')).json().data.optedOut).toBe(true);
    await raise(carer);
    await built().ctx.outbox.idle();
    expect(alertTexts(phone)).toHaveLength(0);

    const start = { ...stop, Body: 'START' };
    expect((await inbound(start, signed(start))).statusCode).toBe(200);
    expect((await call(carer, 'status')).json().data.optedOut).toBe(false);
  });

  it('the test SMS reports the SID the provider gave it', async () => {
    const { carer, phone } = await verified();
    const res = await call(carer, 'test');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      accepted: true,
      sid: expect.stringMatching(/^SM\d{32}$/),
      detail: null,
    });
    expect(twilio().to(phone).at(-1)?.body).toContain('test');
  });

  it('a person with push gets the SMS rung only when no receipt comes within fallbackAfterSeconds', async () => {
    const browser = peer().subscriber();
    const delivered = peer().delivered(browser.endpoint);
    const { carer, phone } = await verified(await userWithBrowsers(built(), browser));
    const { alertId, sentAt } = await raise(carer);
    await built().ctx.outbox.runOnce(new Date(sentAt));
    await built().ctx.outbox.idle();
    await delivered;
    expect(alertTexts(phone)).toHaveLength(0);

    await built().ctx.outbox.runOnce(new Date(sentAt + 59 * SECOND));
    await built().ctx.outbox.idle();
    expect(alertTexts(phone)).toHaveLength(0);

    await built().ctx.outbox.runOnce(new Date(sentAt + 61 * SECOND));
    await built().ctx.outbox.idle();
    expect(alertTexts(phone)).toHaveLength(1);
    expect(await bySms(carer, alertId)).toEqual([
      ['fallback', null, 'no receipt within 60 s'],
      ['notified', true, null],
    ]);
  });
});

describe.each(dbTargets())('SMS without Twilio settings on $name', (target) => {
  const built = useTestApp(target, { notifications: { pollMs: 0 } });

  it('is not offered: the status says so, a number or an inbound message gets 503', async () => {
    const carer = await signup(built());
    const call = (name: string, payload?: object) =>
      built().app.inject({
        method: 'POST',
        url: `/api/v1/sms/${name}`,
        headers: carer.auth,
        ...(payload ? { payload } : {}),
      });
    expect((await call('status')).json().data).toEqual({
      configured: false,
      phone: null,
      verified: false,
      optedOut: false,
      codePending: false,
    });
    const set = await call('number', { phone: '+14155550123' });
    expect(set.statusCode).toBe(503);
    expect(set.json().message).toBe(SMS_MESSAGES.notConfigured);
    const inbound = await built().app.inject({
      method: 'POST',
      url: '/api/v1/sms/inbound/twilio',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'From=%2B14155550123&Body=STOP',
    });
    expect(inbound.statusCode).toBe(503);
  });
});
