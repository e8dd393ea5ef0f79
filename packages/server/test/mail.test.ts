import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTransientMailError } from '../src/mail/alert-mailer.ts';
import { outboxDir } from '../src/mail/mailer.ts';
import { dbTargets, signup, type TestUser, useTestApp, verifyEmail } from './helpers.ts';
import { alertRecord, queueAlerts } from './push-fixtures.ts';

/** Enough of RFC 2045 quoted-printable for ASCII bodies: soft line breaks and =XX escapes. */
const decodeQuotedPrintable = (s: string) =>
  s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe.each(dbTargets())('alert emails on $name', (target) => {
  const built = useTestApp(target, { publicUrl: 'https://vitalwatch.example' });
  const outbox = () => outboxDir(built().ctx.config.dataDir);
  const mails = () => {
    try {
      return (
        readdirSync(outbox())
          .filter((f) => f.endsWith('.eml'))
          .map((f) => readFileSync(path.join(outbox(), f), 'utf8'))
          // Alert mails only: a new account's verification mail lands here too.
          .filter((m) => /x-vitalwatch-alert-id/i.test(m))
      );
    } catch {
      return [];
    }
  };
  /** Opts in, with a verified address (alert e-mails go only to one). */
  const optIn = async (user: TestUser) => {
    await verifyEmail(built(), user);
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/alert-emails',
      headers: user.auth,
      payload: { enabled: true },
    });
    expect(res.statusCode).toBe(200);
  };

  it('writes one .eml per alert for each assigned user who opted in, and none for others', async () => {
    const watcher = await signup(built(), { fullName: 'Wendy Watcher' });
    const quiet = await signup(built());
    const outsider = await signup(built());
    await optIn(watcher);
    await optIn(outsider);
    const before = mails().length;
    const deviceId = randomUUID();
    const alert = alertRecord(deviceId, 'FALL', {
      alertTitle: 'Fall detected',
      alertMessage: 'A fall was detected <check now>',
      deviceName: "Grandma's band",
      createdAt: '2026-03-04T05:06:07.000Z',
    });
    await queueAlerts(built(), [watcher.user._id, quiet.user._id], [alert]);
    await built().ctx.outbox.idle();

    const sent = mails().slice(before);
    expect(sent).toHaveLength(1);
    const [raw = ''] = sent;
    const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
    const mail = decodeQuotedPrintable(raw);
    expect(unfolded).toContain(`To: ${watcher.user.email}`);
    expect(unfolded).toContain('From: VitalWatch <test@vitalwatch.local>');
    expect(unfolded).toContain("Subject: VitalWatch alert: Fall detected (Grandma's band)");
    expect(unfolded.toLowerCase()).toContain(`x-vitalwatch-alert-id: ${alert._id}`);
    // The outbox job's id: a mail sent again after a crash is the same message to the reader's mail system.
    expect(unfolded).toMatch(/Message-ID: <[0-9a-f-]{36}@vitalwatch\.notification>/);
    expect(mail).toContain('Hello Wendy Watcher,');
    expect(mail).toContain('A fall was detected <check now>');
    expect(mail).toContain('A fall was detected &#60;check now&#62;');
    expect(mail).toContain("Device: Grandma's band");
    expect(mail).toContain('Time: Mar 4, 2026, 05:06 AM UTC');
    expect(mail).toContain('Priority: High priority');
    expect(mail).toContain('View your alerts: https://vitalwatch.example/dashboard/alerts');
    expect(mail).toContain('<a href="https://vitalwatch.example/dashboard/alerts">');
    expect(mails().join('\n')).not.toContain(quiet.user.email);
    expect(mails().join('\n')).not.toContain(outsider.user.email);
  });

  it('stops mailing after the user opts out', async () => {
    const user = await signup(built());
    await optIn(user);
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/alert-emails',
      headers: user.auth,
      payload: { enabled: false },
    });
    const deviceId = randomUUID();
    await queueAlerts(built(), [user.user._id], [alertRecord(deviceId, 'SOS')]);
    await built().ctx.outbox.idle();
    expect(mails().join('\n')).not.toContain(user.user.email);
  });
});

describe('which mail failures are retried', () => {
  const smtpError = (props: Record<string, unknown>) => Object.assign(new Error('smtp'), props);
  it.each([
    [smtpError({ responseCode: 421 }), true],
    [smtpError({ responseCode: 451 }), true],
    [smtpError({ code: 'ECONNECTION' }), true],
    [smtpError({ responseCode: 550 }), false],
    [smtpError({ code: 'EENVELOPE' }), false],
    ['not an error', false],
  ])('%# → %s', (err, transient) => {
    expect(isTransientMailError(err)).toBe(transient);
  });
});
