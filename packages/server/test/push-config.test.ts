import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../src/config.ts';
import { VAPID_KEYS_FILE } from '../src/push/vapid-keys.ts';

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
