import { ALERTS_CSV_HEADER, type AuditPage, readingsCsvHeader, rollupCsvHeader } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../src/modules/export/csv.ts';
import { readingLines } from '../src/modules/export/queries.ts';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { popplerRead } from './pdf-tools.ts';

describe('CSV lines', () => {
  it('quotes what needs quoting and defuses spreadsheet formulas, leaving numbers alone', () => {
    expect(csvLine(['a', null, '97.5', '-3.2', undefined])).toBe('a,,97.5,-3.2,\r\n');
    expect(csvLine(['say "hi", then', 'two\nlines'])).toBe('"say ""hi"", then","two\nlines"\r\n');
    expect(csvLine(['=HYPERLINK("x")', '+1+1', '@SUM(A1)', '-cmd'])).toBe(
      `"'=HYPERLINK(""x"")",'+1+1,'@SUM(A1),'-cmd\r\n`,
    );
  });

  it('defuses a formula wherever an importer splitting on , ; tab | or a line break would start a cell', () => {
    const cells = [
      'x;=HYPERLINK("http://evil")',
      'a|+1+1',
      'b\t@SUM(A1)',
      'c,-2+3',
      'd; "=1+1"',
      'line\n=cmd',
      '\t1+1',
      '\r=1',
      'e;=1;@2',
    ];
    expect(cells.map((cell) => csvLine([cell]))).toEqual([
      `"x;'=HYPERLINK(""http://evil"")"\r\n`,
      "a|'+1+1\r\n",
      "b\t'@SUM(A1)\r\n",
      `"c,'-2+3"\r\n`,
      `"d; ""'=1+1"""\r\n`,
      `"line\n'=cmd"\r\n`,
      "'\t1+1\r\n",
      `"'\r'=1"\r\n`,
      "e;'=1;'@2\r\n",
    ]);
  });

  it('leaves numbers alone, negative ones too, also where a split would make them a cell', () => {
    expect(csvLine(['-40', '-3.2e1', '97;-2', 'from -5 to 3', '2026-01-05T10:00:00.000Z', 'a-b=c'])).toBe(
      '-40,-3.2e1,97;-2,from -5 to 3,2026-01-05T10:00:00.000Z,a-b=c\r\n',
    );
  });
});

/** A CSV body as rows of fields (no field here holds a comma or quote, except where tested). */
const rowsOf = (body: string) =>
  body
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));

describe.each(dbTargets())('CSV exports on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  let owner: TestUser;
  let deviceId: string;
  let apiKey: string;
  // Two days ago at midnight UTC: well inside the raw retention.
  const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000;
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

  beforeAll(async () => {
    admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin);
    owner = made.user;
    deviceId = made.device._id;
    apiKey = made.device.apiAuthCode;
    const readings = [
      { recordedAt: at(0.5), spo2: 97, heartRate: 71, temperature: 98.6, battery: 90 },
      { recordedAt: at(1.25), spo2: 95.5, heartRate: 75 },
      { recordedAt: at(61), spo2: 92, heartRate: 120, temperature: 100.4, battery: 88 },
    ];
    expect((await postHealth(built(), apiKey, readings)).statusCode).toBe(202);
    const sos = await postAlert(built(), apiKey, {
      alertType: 'SOS',
      recordedAt: at(2),
      alertMessage: '=cmd|"/c calc"!A1, pressed twice',
    });
    expect(sos.statusCode).toBe(202);
  });

  const get = (url: string, who: TestUser | null = owner) =>
    built().app.inject({ method: 'GET', url, ...(who ? { headers: who.auth } : {}) });
  const range = `from=${at(0)}&to=${at(24 * 60)}`;

  it('streams every reading with a header row, ISO timestamps and the values as stored', async () => {
    const res = await get(`/api/v1/export/readings/${deviceId}?${range}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="vitalwatch-readings-raw-${at(0).slice(0, 10)}-${at(24 * 60).slice(0, 10)}.csv"`,
    );
    expect(rowsOf(res.body)).toEqual([
      readingsCsvHeader('F'),
      [at(0.5), '97', '71', '98.6', '90'],
      [at(1.25), '95.5', '75', '', ''],
      [at(61), '92', '120', '100.4', '88'],
    ]);
  });

  it('writes temperatures in °C, and says so in the header, for a user who chose °C', async () => {
    const setUnit = (unit: 'C' | 'F') =>
      built().app.inject({
        method: 'POST',
        url: '/api/v1/user/temperature-unit',
        headers: owner.auth,
        payload: { unit },
      });
    await setUnit('C');
    const raw = rowsOf((await get(`/api/v1/export/readings/${deviceId}?${range}`)).body);
    expect(raw[0]).toEqual(readingsCsvHeader('C'));
    expect(raw[0]).toContain('temperature_c');
    expect(raw.slice(1).map((r) => r[3])).toEqual(['37', '', '38']);
    const hour = rowsOf((await get(`/api/v1/export/readings/${deviceId}?${range}&resolution=hour`)).body);
    expect(hour[0]).toContain('temperature_c_avg');
    await setUnit('F');
  });

  it('exports minute and hour rollups with min, average, max and count of each vital', async () => {
    const minute = rowsOf((await get(`/api/v1/export/readings/${deviceId}?${range}&resolution=minute`)).body);
    expect(minute[0]).toEqual(rollupCsvHeader('F'));
    expect(minute).toHaveLength(4);
    expect(minute[1]!.slice(0, 6)).toEqual([at(0), '1', '97', '97.00', '97', '1']);
    const hour = rowsOf((await get(`/api/v1/export/readings/${deviceId}?${range}&resolution=hour`)).body);
    expect(hour).toHaveLength(3);
    // SpO2 of the first hour: 97 and 95.5.
    expect(hour[1]!.slice(0, 6)).toEqual([at(0), '2', '95.5', '96.25', '97', '2']);
  });

  it('makes a PDF report: the period, time in range, daily figures and the alerts', async () => {
    const res = await get(`/api/v1/export/report/${deviceId}?${range}&timeZone=Europe/Paris`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="vitalwatch-report-/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const { text } = await popplerRead(pdf);
    for (const expected of [
      'VitalWatch health report',
      'Summary',
      'Time in range',
      'SpO2 (%)',
      'Heart rate (bpm)',
      'Temperature (°F)',
      'Daily trend',
      'Day by day',
      'Alerts (1)',
      'High priority',
      'Not acknowledged',
    ])
      expect(text, expected).toContain(expected);
    // SpO2 97 and 95.5 in range (>= 95), 92 not: 66.7 %.
    expect(text).toContain('66.7 %');
    const bad = await get(`/api/v1/export/report/${deviceId}?${range}&timeZone=Mars/Olympus`);
    expect(bad.statusCode).toBe(400);
  });

  it('exports alerts with device and arrival times, and a message that cannot run as a formula', async () => {
    const res = await get(`/api/v1/export/alerts/${deviceId}?${range}`);
    expect(res.statusCode).toBe(200);
    const [header, first] = res.body.split('\r\n');
    expect(header).toBe(ALERTS_CSV_HEADER.join(','));
    expect(first?.startsWith(`${at(2)},`)).toBe(true);
    expect(first).toMatch(/^[^,]+,\d{4}-\d\d-\d\dT[\d:.]+Z,SOS,high,active,/);
    expect(first).toContain(`"'=cmd|""/c calc""!A1, pressed twice"`);
  });

  it('pages through many readings, each exactly once and in order, whatever the page size', async () => {
    const made = await userWithDevice(built(), admin);
    const many = 12_345;
    await built().ctx.db.execute(
      sql`insert into health_records (device_seq, recorded_at, heart_rate)
        select (select seq from devices where id = ${made.device._id}), ${at(0)}::timestamptz + (i || ' seconds')::interval, 60 + i % 40
        from generate_series(0, ${many - 1}) as i`,
    );
    const res = await get(`/api/v1/export/readings/${made.device._id}?${range}`, made.user);
    const rows = rowsOf(res.body).slice(1);
    expect(rows).toHaveLength(many);
    expect(rows.map((r) => r[0])).toEqual([...rows.map((r) => r[0]!)].sort());
    expect(new Set(rows.map((r) => r[0])).size).toBe(many);
    // The same with pages of 1,000 rows (and one row less than a page at the end).
    let seen = 0;
    for await (const page of readingLines(built().ctx.db, {
      deviceId: made.device._id,
      from: new Date(at(0)),
      to: new Date(at(24 * 60)),
      resolution: 'raw',
      pageRows: 1_000,
    })) {
      expect(page.length).toBeLessThanOrEqual(1_000);
      seen += page.length;
    }
    expect(seen).toBe(many);
  });

  it('refuses guests, devices the caller does not watch and bad periods, and audits each export', async () => {
    expect((await get(`/api/v1/export/readings/${deviceId}?${range}`, null)).statusCode).toBe(401);
    const stranger = await signup(built());
    expect((await get(`/api/v1/export/readings/${deviceId}?${range}`, stranger)).statusCode).toBe(404);
    expect((await get(`/api/v1/export/alerts/${deviceId}?${range}`, stranger)).statusCode).toBe(404);
    const backwards = await get(`/api/v1/export/readings/${deviceId}?from=${at(10)}&to=${at(0)}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().issues).toEqual([{ path: 'to', message: 'to must be after from' }]);
    const tooLong = await get(`/api/v1/export/readings/${deviceId}?from=${at(0)}&to=${at(91 * 24 * 60)}`);
    expect(tooLong.json().issues).toEqual([{ path: 'to', message: 'An export covers at most 90 days' }]);
    const badResolution = await get(`/api/v1/export/readings/${deviceId}?${range}&resolution=second`);
    expect(badResolution.json().issues).toEqual([
      { path: 'resolution', message: 'resolution must be raw, minute or hour' },
    ]);

    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?action=data-export&targetId=${deviceId}&limit=50`,
      headers: admin.auth,
    });
    const entries = audit.json<{ data: AuditPage }>().data.entries;
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.every((e) => e.actorId === owner.user._id)).toBe(true);
    expect(entries.map((e) => e.detail.kind)).toEqual(expect.arrayContaining(['readings', 'alerts']));
  });
});
