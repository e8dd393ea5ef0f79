import { beforeAll, describe, expect, it } from 'vitest';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { entries, fhirClient, fhirValidator, type Json, linkOf } from './fhir-check.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('FHIR R4 on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let validate: Awaited<ReturnType<typeof fhirValidator>>;
  let owner: TestUser;
  let deviceId: string;
  const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
  const range = `date=ge${at(0)}&date=le${at(60)}`;

  beforeAll(async () => {
    validate = await fhirValidator();
    const admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin, 'Wristband');
    owner = made.user;
    deviceId = made.device._id;
    const readings = [
      { recordedAt: at(1), spo2: 97, heartRate: 71, temperature: 98.6, battery: 90 },
      { recordedAt: at(2), spo2: 95.5, heartRate: 75 },
      { recordedAt: at(3), temperature: 100.4 },
    ];
    expect((await postHealth(built(), made.device.apiAuthCode, readings)).statusCode).toBe(202);
  }, 60_000);

  const fhir = fhirClient(built);
  const get = (url: string, who: TestUser | null = owner) => fhir.get(url, who);

  it('finds the Observations of a device and period: vital signs with LOINC codes and UCUM units, valid R4', async () => {
    const res = await get(`/fhir/R4/Observation?device=Device/${deviceId}&${range}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const bundle = res.body;
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    const observations = entries(bundle);
    expect(observations).toHaveLength(6);
    // The validator does refuse: no status (required in R4), no subject (required by the profile).
    const { status: _status, ...noStatus } = observations[0]!;
    expect(validate(noStatus as Json)).not.toEqual([]);
    const { subject: _subject, ...noSubject } = observations[0]!;
    expect(validate(noSubject as Json)).not.toEqual([]);
    // So does the R4 JSON Schema: a date-time without a time zone, a field R4 does not have.
    expect(validate.schema(observations[0]!)).toEqual([]);
    expect(validate.schema({ ...observations[0]!, effectiveDateTime: '2026-11-24T10:00:00' })).not.toEqual(
      [],
    );
    expect(validate.schema({ ...observations[0]!, vendorField: 1 })).not.toEqual([]);
    const codes = observations.map((o) => [
      (o.code as { coding: { code: string }[] }).coding.map((c) => c.code).join('+'),
      (o.valueQuantity as { value: number; code: string }).value,
      (o.valueQuantity as { code: string }).code,
    ]);
    expect(codes).toEqual([
      ['2708-6+59408-5', 97, '%'],
      ['8867-4', 71, '/min'],
      ['8310-5', 98.6, '[degF]'],
      ['2708-6+59408-5', 95.5, '%'],
      ['8867-4', 75, '/min'],
      ['8310-5', 100.4, '[degF]'],
    ]);
    expect(observations[0]).toMatchObject({
      status: 'final',
      category: [{ coding: [{ code: 'vital-signs' }] }],
      effectiveDateTime: at(1),
      device: { reference: `Device/${deviceId}` },
    });
  });

  it('pages with a next link that walks every Observation exactly once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `/fhir/R4/Observation?device=${deviceId}&${range}&_count=1`;
    for (let pagesLeft = 10; url && pagesLeft > 0; pagesLeft--) {
      const bundle: Json = (await get(url)).body;
      seen.push(...entries(bundle).map((o) => String(o.id)));
      url = linkOf(bundle, 'next');
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it('answers °C to a user who chose it', async () => {
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/temperature-unit',
      headers: owner.auth,
      payload: { unit: 'C' },
    });
    const bundle = (await get(`/fhir/R4/Observation?device=${deviceId}&${range}`)).body;
    const temps = entries(bundle).filter((o) => (o.valueQuantity as { code: string }).code === 'Cel');
    expect(temps.map((o) => (o.valueQuantity as { value: number }).value)).toEqual([37, 38]);
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/temperature-unit',
      headers: owner.auth,
      payload: { unit: 'F' },
    });
  });

  it('downloads a device, its wearer and every Observation as one valid Bundle', async () => {
    const res = await get(`/fhir/R4/Device/${deviceId}/$export?_since=${at(0)}&_until=${at(60)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="vitalwatch-fhir-/);
    const resources = entries(res.body);
    expect(resources.map((r) => r.resourceType)).toEqual([
      'Device',
      'Patient',
      ...Array.from({ length: 6 }, () => 'Observation'),
    ]);
    expect(resources[0]).toMatchObject({
      id: deviceId,
      status: 'active',
      deviceName: [{ name: 'Wristband' }],
    });
    expect((await get(`/fhir/R4/Device/${deviceId}`)).body).toEqual(resources[0]);
  });

  it('answers errors as OperationOutcomes: no sign-in, a device not yours, bad parameters', async () => {
    const guest = await get(`/fhir/R4/Observation?device=${deviceId}`, null);
    expect(guest.status).toBe(401);
    expect(guest.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
    const stranger = await signup(built());
    const hidden = await get(`/fhir/R4/Observation?device=${deviceId}`, stranger);
    expect(hidden.status).toBe(404);
    expect((await get(`/fhir/R4/Device/${deviceId}`, stranger)).status).toBe(404);
    for (const [query, expression] of [
      ['', 'device'],
      [`device=${deviceId}&date=yesterday`, 'date'],
      [`device=${deviceId}&date=ge${at(0)}&date=le${at(0 + 91 * 24 * 60)}`, 'date'],
      [`device=${deviceId}&_count=0`, '_count'],
    ] as const) {
      const res = await get(`/fhir/R4/Observation?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ expression: [expression] }],
      });
    }
    expect((await get('/fhir/R4/metadata', null)).status).toBe(200);
  });
});
