import { CHANNEL_CHECK_TAG } from '@vitalwatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { testConfig } from './helpers.ts';
import { scratchDatabase } from './process-api.ts';
import { PEER_ENDPOINTS, usePushPeer, userWithBrowsers } from './push-fixtures.ts';
import { selfSignedCert } from './push-peer.ts';
import { serviceUrl } from './realtime-helpers.ts';

const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const identity = selfSignedCert();
const HOUR = 3_600_000;

/**
 * The daily check across server instances on one PostgreSQL database (each its own pool, as
 * separate processes have): both look for due browsers at the same moment, each browser gets one
 * check, sent once.
 */
describe.skipIf(!databaseUrl)('channel checks across two server instances on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };
  const peer = usePushPeer(identity);
  const apps: BuiltApp[] = [];
  const start = async () => {
    const built = await buildApp(
      testConfig({ databaseUrl: database.url, vapid, ...PEER_ENDPOINTS, notifications: { pollMs: 0 } }),
      { push: { ca: identity.cert }, channelChecks: { sweepMs: 0 } },
    );
    await built.app.ready();
    apps.push(built);
    return built;
  };

  beforeAll(async () => {
    database = await scratchDatabase(databaseUrl!);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.app.close()));
    await database?.drop();
  });

  it('two instances sweeping at once send each due browser one check', async () => {
    const [a, b] = [await start(), await start()];
    const browsers = Array.from({ length: 20 }, () => peer().subscriber());
    for (let i = 0; i < browsers.length; i += 4) await userWithBrowsers(a, ...browsers.slice(i, i + 4));
    const now = new Date(Date.now() + 25 * HOUR);
    const handled = await Promise.all([a.ctx.channelChecks.sweep(now), b.ctx.channelChecks.sweep(now)]);
    expect(handled[0] + handled[1]).toBe(20);
    await Promise.all([a.ctx.outbox.idle(), b.ctx.outbox.idle()]);
    const checks = browsers.map(
      (s) =>
        peer()
          .requestsTo(s.endpoint)
          .filter((r) => JSON.parse(s.decrypt(r.body)).tag === CHANNEL_CHECK_TAG).length,
    );
    expect(checks).toEqual(browsers.map(() => 1));
    // And again at the same moment: nothing more is due.
    expect(await Promise.all([a.ctx.channelChecks.sweep(now), b.ctx.channelChecks.sweep(now)])).toEqual([
      0, 0,
    ]);
  });
});
