import { createECDH } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../src/config.ts';
import { KNOWN_PUSH_SERVICE_HOSTS } from '../src/push-delivery/endpoint-guard.ts';
import { newVapidKeys, VAPID_KEYS_FILE, vapidKeysSchema } from '../src/push-delivery/vapid-keys.ts';
import { verifyVapid } from './push-peer.ts';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'vw-vapid-'));

describe('VAPID keys in the configuration', () => {
  it('generates a key pair once and keeps it in DATA_DIR, readable only by the owner', () => {
    const dir = freshDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.vapid?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(second.vapid).toEqual(first.vapid);
    expect(statSync(path.join(dir, VAPID_KEYS_FILE)).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: freshDir() }).vapid?.publicKey).not.toBe(first.vapid?.publicKey);
  });

  it('generates pairs web-push signs with: the public point of the private scalar, 32 bytes with any leading zeros', () => {
    // One scalar in 256 starts with a zero byte, which node:crypto leaves out: 6,000 pairs meet some
    // (all 6,000 without one: a chance in 10^10).
    let shortScalars = 0;
    for (let i = 0; i < 6000; i++) {
      const keys = vapidKeysSchema.parse(newVapidKeys());
      const scalar = Buffer.from(keys.privateKey, 'base64url');
      if (scalar[0] === 0) shortScalars++;
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(scalar);
      expect(ecdh.getPublicKey('base64url')).toBe(keys.publicKey);
    }
    expect(shortScalars).toBeGreaterThan(0);
    const keys = newVapidKeys();
    const headers = webpush.getVapidHeaders(
      'https://push.example',
      'mailto:push-test@vitalwatch.test',
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
    );
    // Signed with the private key, verified with the public one.
    expect(verifyVapid(headers.Authorization, keys.publicKey).aud).toBe('https://push.example');
  });

  it('takes VAPID_* from the environment', () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({
      DATA_DIR: freshDir(),
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://vitalwatch.example',
    });
    expect(config.vapid).toEqual({ ...keys, subject: 'https://vitalwatch.example' });
  });

  it.each([
    [{ VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey }, /must be set together/],
    [{ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: 'short' }, /VAPID_PUBLIC_KEY: .*65 bytes/],
    [{ VAPID_SUBJECT: 'alerts@vitalwatch.example' }, /VAPID_SUBJECT: must be a mailto: or https/],
  ])('refuses a bad setting %#', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: freshDir(), ...env })).toThrow(message);
  });
});

describe('push endpoint settings', () => {
  it('accepts only the browsers’ push services by default, and exempts no host', () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).pushEndpoints).toEqual({
      allowedHosts: KNOWN_PUSH_SERVICE_HOSTS,
      testOnlyHosts: [],
    });
  });

  it('takes PUSH_SERVICE_HOSTS as host names, *.domain patterns, or * for any public host', () => {
    const listed = loadConfig({
      DATA_DIR: freshDir(),
      PUSH_SERVICE_HOSTS: 'Push.Example.org, *.push.example.net',
    });
    expect(listed.pushEndpoints?.allowedHosts).toEqual(['push.example.org', '*.push.example.net']);
    const any = loadConfig({ DATA_DIR: freshDir(), PUSH_SERVICE_HOSTS: '*' });
    expect(any.pushEndpoints?.allowedHosts).toBe('any');
  });

  it.each([
    '10.0.0.1',
    'fcm.googleapis.com,192.168.0.1',
    'https://fcm.googleapis.com',
    'localhost',
    'push.example.org,*',
  ])('refuses PUSH_SERVICE_HOSTS=%s', (value) => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), PUSH_SERVICE_HOSTS: value })).toThrow(
      /PUSH_SERVICE_HOSTS: must be \* or comma-separated host names/,
    );
  });

  it('refuses the test-only exemption outside NODE_ENV=test, where it lets pushes into the network', () => {
    for (const NODE_ENV of [undefined, 'production', 'development']) {
      expect(() => loadConfig({ DATA_DIR: freshDir(), NODE_ENV, PUSH_TEST_ONLY_HOSTS: '127.0.0.1' })).toThrow(
        /PUSH_TEST_ONLY_HOSTS: only for tests/,
      );
    }
    const test = loadConfig({ DATA_DIR: freshDir(), NODE_ENV: 'test', PUSH_TEST_ONLY_HOSTS: '127.0.0.1' });
    expect(test.pushEndpoints?.testOnlyHosts).toEqual(['127.0.0.1']);
  });
});
