import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { smsSegments } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { alertSms } from '../src/sms/text.ts';
import { twilioSignature } from '../src/sms/twilio.ts';
import { alertRecord } from './push-fixtures.ts';

const LINK = 'https://vitalwatch.example/dashboard/alerts';
const freshDir = () => mkdtempSync(path.join(tmpdir(), 'vw-sms-'));

describe('the text of an alert SMS', () => {
  it('says the priority, title, device and link in one segment', () => {
    const text = alertSms(alertRecord('d1', 'SOS', { deviceName: "Mum's watch" }), LINK, false);
    expect(text).toMatch(
      /^VitalWatch HIGH: .+ on Mum's watch\. https:\/\/vitalwatch\.example\/dashboard\/alerts$/,
    );
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
  });

  it('shortens a long title and device name, never the link', () => {
    const alert = alertRecord('d1', 'SOS', { alertTitle: 'T'.repeat(200), deviceName: 'D'.repeat(100) });
    const text = alertSms(alert, LINK, true);
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(text).toContain('(not acknowledged)');
    expect(text.endsWith(` ${LINK}`)).toBe(true);
    expect(text).toMatch(/T\.\.\. on D+\.\.\.\./);
  });

  it('keeps a name outside the GSM alphabet to two UCS-2 parts, link whole', () => {
    const alert = alertRecord('d1', 'SOS', {
      alertTitle: 'Кнопка SOS нажата на улице возле дома, нужна помощь срочно',
      deviceName: 'Mum’s 💓 watch with a long and very descriptive name',
    });
    const text = alertSms(alert, LINK, false);
    expect(smsSegments(text)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(text.endsWith(` ${LINK}`)).toBe(true);
    expect(text).toContain('Кнопка SOS');
    expect(text).toContain('Mum’s 💓');
  });
});

describe('Twilio settings and signatures', () => {
  it('offers SMS only with the account, token and sender; some of them is an error', () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).twilio).toBeUndefined();
    expect(
      loadConfig({
        DATA_DIR: freshDir(),
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_FROM: '+1500',
      }).twilio,
    ).toEqual({ accountSid: 'AC1', authToken: 't', from: '+1500', apiUrl: 'https://api.twilio.com' });
    expect(() => loadConfig({ DATA_DIR: freshDir(), TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(ConfigError);
  });

  // Twilio's documented example (twilio.com/docs/usage/security, validating requests; TwilioDevEd/api-snippets).
  it('signs as Twilio documents it', () => {
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675310',
      Digits: '1234',
      From: '+14158675310',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', url, params)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });
});
