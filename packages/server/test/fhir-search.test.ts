import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice, postHealth, userWithDevice } from './device-helpers.ts';
import { entries, fhirClient, type Json, linkOf } from './fhir-check.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const DAY = 86_400_000;

describe.each(dbTargets())('FHIR R4 Observation search on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const fhir = fhirClient(built);
  let owner: TestUser;
  let mixed: string;
  let full: string;
  // A UTC day three days ago: readings just before, on, and just after it.
  const day = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
  const iso = (ms: number) => new Date(ms).toISOString();
  const date = iso(day).slice(0, 10);
  const mixedReadings = [
    { recordedAt: iso(day - 1), spo2: 96 },
    { recordedAt: iso(day), spo2: 97, heartRate: 70, temperature: 98.1 },
    { recordedAt: iso(day + 6 * 3_600_000), battery: 80 },
    { recordedAt: iso(day + 12.5 * 3_600_000 + 15_500), heartRate: 72, temperature: 98.2 },
    { recordedAt: iso(day + DAY - 1), spo2: 98 },
    { recordedAt: iso(day + DAY), heartRate: 74 },
  ];
  /** Observations per reading above (the battery-only reading has none). */
  const perReading = [1, 3, 0, 2, 1, 1];

  beforeAll(async () => {
    const admin = await createAdmin(built());
    const a = await userWithDevice(built(), admin, 'Mixed');
    owner = a.user;
    mixed = a.device._id;
    expect((await postHealth(built(), a.device.apiAuthCode, mixedReadings)).statusCode).toBe(202);
    const b = await createDevice(built(), admin, { deviceName: 'Full', users: [owner.user._id] });
    full = b._id;
    const ten = Array.from({ length: 10 }, (_, i) => ({
      recordedAt: iso(day + i * 60_000),
      spo2: 95 + (i % 4),
      heartRate: 60 + i,
      temperature: 97 + i / 10,
    }));
    expect((await postHealth(built(), b.apiAuthCode, ten)).statusCode).toBe(202);
  }, 60_000);

  const search = async (device: string, query: string) => {
    const res = await fhir.get(`/fhir/R4/Observation?device=${device}&${query}`, owner);
    expect(res.status, query).toBe(200);
    return res.body;
  };
  /** Every Observation a search finds, walking its next links; the size of each page. */
  async function walk(device: string, query: string) {
    const ids: string[] = [];
    const pages: number[] = [];
    let url: string | undefined = `/fhir/R4/Observation?device=${device}&${query}`;
    while (url) {
      const bundle: Json = (await fhir.get(url, owner)).body;
      pages.push(entries(bundle).length);
      ids.push(...entries(bundle).map((o) => String(o.id)));
      url = linkOf(bundle, 'next');
      if (pages.length > 20) throw new Error('the next links do not end');
    }
    return { ids, pages };
  }
  /** Which of the mixed readings a search finds, by their index, from the Observations' times. */
  const readingsFound = (bundle: Json) => [
    ...new Set(
      entries(bundle).map((o) => mixedReadings.findIndex((r) => r.recordedAt === o.effectiveDateTime)),
    ),
  ];

  it('_count counts Observations: pages of at most _count, next links that lose and repeat none', async () => {
    const range = `date=ge${iso(day)}&date=le${iso(day + DAY - 1)}`;
    const all = entries(await search(full, `${range}&_count=1000`)).map((o) => String(o.id));
    expect(all).toHaveLength(30);
    expect(await walk(full, `${range}&_count=10`)).toEqual({ ids: all, pages: [10, 10, 10] });
    const page = await search(full, `${range}&_count=10`);
    expect(entries(page)).toHaveLength(10);
    expect(linkOf(page, 'self')).toContain('_count=10');
    // Pages that end inside a reading, and a reading without vitals among them.
    const mixedAll = entries(await search(mixed, `date=ge${iso(day - DAY)}&date=le${iso(day + DAY)}`));
    expect(mixedAll).toHaveLength(8);
    const walked = await walk(mixed, `date=ge${iso(day - DAY)}&date=le${iso(day + DAY)}&_count=3`);
    expect(walked).toEqual({ ids: mixedAll.map((o) => String(o.id)), pages: [3, 3, 2] });
  });

  it('searches dates as the range of their precision, with every R4 prefix but ap', async () => {
    const found = async (query: string) => readingsFound(await search(mixed, query));
    expect(await found(`date=${date}`)).toEqual([1, 3, 4]);
    expect(await found(`date=eq${date}`)).toEqual([1, 3, 4]);
    expect(await found(`date=ge${date}&date=le${date}`)).toEqual([1, 3, 4]);
    expect(await found(`date=gt${date}`)).toEqual([5]);
    expect(await found(`date=sa${date}`)).toEqual([5]);
    expect(await found(`date=lt${date}`)).toEqual([0]);
    expect(await found(`date=eb${date}`)).toEqual([0]);
    expect(await found(`date=ne${date}&date=ge${iso(day - DAY)}&date=le${iso(day + DAY)}`)).toEqual([0, 5]);
    expect(await found(`date=${iso(day + 12.5 * 3_600_000).slice(0, 16)}Z`)).toEqual([3]);
    expect(await found(`date=${iso(day + 12.5 * 3_600_000 + 15_000).slice(0, 19)}Z`)).toEqual([3]);
    // One hour east of UTC, 00:59:59 is the last second of the day before in UTC (reading 0).
    expect(await found(`date=${date}T00:59:59%2B01:00,${date}T00:00:00Z`)).toEqual([0, 1]);
    expect(await found(`date=ge${date}T00:00:00%2B01:00&date=lt${date}T00:00:00.001Z`)).toEqual([0, 1]);
    const month = date.slice(0, 7);
    const inMonth = mixedReadings
      .map((r, i) => (r.recordedAt.startsWith(month) && perReading[i]! > 0 ? i : -1))
      .filter((i) => i >= 0);
    expect(await found(`date=${month}`)).toEqual(inMonth);
    // Nothing can match: an empty searchset, no entries.
    const none = await search(mixed, `date=ge${iso(day + DAY)}&date=lt${date}`);
    expect(none).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(none.entry).toBeUndefined();
    for (const [query, issue] of [
      [`date=ap${date}`, 'ap is not supported'],
      [`date=${date}T25:00:00Z`, 'not a FHIR date'],
      [`date=${date.slice(0, 4)}`, '90 days'],
      [Array.from({ length: 21 }, () => `date=${date}`).join('&'), 'at most 20'],
    ] as const) {
      const res = await fhir.get(`/fhir/R4/Observation?device=${mixed}&${query}`, owner);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ expression: ['date'] }] });
      expect(JSON.stringify(res.body), query).toContain(issue);
    }
  });

  it('refuses a malformed or foreign paging cursor with a 400 OperationOutcome', async () => {
    const range = `date=ge${iso(day)}&date=le${iso(day + DAY - 1)}`;
    const page = await search(full, `${range}&_count=10`);
    const next = linkOf(page, 'next')!;
    const cursorOfFull = new URL(next, 'http://x').searchParams.get('_cursor')!;
    for (const cursor of [
      'abc',
      Buffer.from('1|1').toString('base64url'),
      Buffer.from('2026-11-24T00:00:00Z|99999999999999999999').toString('base64url'),
      cursorOfFull.replace(/-[0-9a-z]+-(spo2|hr|temp)$/, '-zzzzzzzzzzzzzz-hr'),
      cursorOfFull,
    ]) {
      // The last one is real, but of another device than this search's.
      const device = cursor === cursorOfFull ? mixed : full;
      const res = await fhir.get(`/fhir/R4/Observation?device=${device}&${range}&_cursor=${cursor}`, owner);
      expect(res.status, cursor).toBe(400);
      expect(res.body).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ expression: ['_cursor'] }],
      });
    }
  });
});
