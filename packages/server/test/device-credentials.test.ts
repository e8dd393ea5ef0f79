import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { DeviceCredentials } from '../src/modules/device/credentials.ts';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

/** The app's database, counting the queries the cache starts (every lookup is a `select`). */
function countingSelects(db: Db) {
  const counted = { selects: 0 };
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'select') counted.selects++;
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: proxy, counted };
}

describe.each(dbTargets())('device credentials on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it("answers one turn's lookups, by code and by id, found or not, with one query", async () => {
    const devices = await Promise.all(Array.from({ length: 30 }, () => createDevice(built(), admin)));
    const { db, counted } = countingSelects(built().ctx.db);
    const credentials = new DeviceCredentials(db);

    const [byKey, byId, unknownKey, unknownId, malformed] = await Promise.all([
      Promise.all(devices.map((d) => credentials.byApiKey(d.apiAuthCode))),
      Promise.all(devices.slice(0, 5).map((d) => credentials.byId(d._id))),
      credentials.byApiKey('no-such-code-at-all'),
      credentials.byId(randomUUID()),
      credentials.byApiKey('not a code\u0000'),
    ]);

    expect(counted.selects).toBe(1);
    expect(byKey.map((d) => d?.id)).toEqual(devices.map((d) => d._id));
    expect(byId.map((d) => d?.apiAuthCode)).toEqual(devices.slice(0, 5).map((d) => d.apiAuthCode));
    expect([unknownKey, unknownId, malformed]).toEqual([undefined, undefined, undefined]);

    // Within the second an entry is trusted, the same lookups ask the database nothing.
    await Promise.all(devices.map((d) => credentials.byApiKey(d.apiAuthCode)));
    expect(counted.selects).toBe(1);
  });

  it('answers lookups of later turns with queries of their own', async () => {
    const [first, second] = await Promise.all([createDevice(built(), admin), createDevice(built(), admin)]);
    const { db, counted } = countingSelects(built().ctx.db);
    const credentials = new DeviceCredentials(db);
    expect((await credentials.byApiKey(first.apiAuthCode))?.id).toBe(first._id);
    expect((await credentials.byApiKey(second.apiAuthCode))?.id).toBe(second._id);
    expect(counted.selects).toBe(2);
  });
});
