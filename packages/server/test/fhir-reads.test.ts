import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { entries, fhirClient, type Json } from './fhir-check.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

const PUBLIC_URL = 'https://vitals.example.org';

/** A built web app to serve, so that its page is what an unknown path would fall back to. */
function webDist() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-fhir-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>VitalWatch</title>');
  return dir;
}

describe.each(dbTargets())('FHIR R4 reads, references and paths on $name', (target) => {
  const built = useTestApp(target, {
    ingest: { offlineSweepIntervalMs: 0 },
    publicUrl: PUBLIC_URL,
    webDist: webDist(),
  });
  const fhir = fhirClient(built);
  let owner: TestUser;
  let stranger: TestUser;
  let deviceId: string;
  const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000).toISOString();
  const since = `_since=${new Date(Date.parse(at) - 60_000).toISOString()}`;

  beforeAll(async () => {
    const admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin, 'Wristband');
    owner = made.user;
    deviceId = made.device._id;
    stranger = await signup(built());
    const readings = [{ recordedAt: at, spo2: 97, heartRate: 71, temperature: 98.6 }];
    expect((await postHealth(built(), made.device.apiAuthCode, readings)).statusCode).toBe(202);
  }, 60_000);

  /** GET an absolute URL of this server (PUBLIC_URL) as its path. */
  const follow = (url: string, who: TestUser | null = owner) => {
    expect(url.startsWith(`${PUBLIC_URL}/fhir/R4/`), url).toBe(true);
    return fhir.get(url.slice(PUBLIC_URL.length), who);
  };

  it('resolves every fullUrl, subject, device and patient reference, for the caller only', async () => {
    const bundle = (await fhir.get(`/fhir/R4/Observation?device=${deviceId}&date=ge${at}`, owner)).body;
    const found = bundle.entry as { fullUrl: string; resource: Json }[];
    expect(found).toHaveLength(3);
    const references = new Set<string>();
    for (const { fullUrl, resource } of found) {
      const read = await follow(fullUrl);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(resource);
      references.add((resource.subject as { reference: string }).reference);
      references.add((resource.device as { reference: string }).reference);
    }
    const device = await fhir.get(`/fhir/R4/Device/${deviceId}`, owner);
    references.add((device.body.patient as { reference: string }).reference);
    expect([...references].sort()).toEqual([`Device/${deviceId}`, `Patient/wearer-${deviceId}`]);
    for (const reference of references) {
      const read = await fhir.get(`/fhir/R4/${reference}`, owner);
      expect(read.status, reference).toBe(200);
      expect(`${read.body.resourceType}/${read.body.id}`).toBe(reference);
      // Someone who may not see the device sees none of it.
      const hidden = await fhir.get(`/fhir/R4/${reference}`, stranger);
      expect(hidden.status, reference).toBe(404);
      expect(hidden.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
      expect((await fhir.get(`/fhir/R4/${reference}`, null)).status).toBe(401);
    }
    for (const { fullUrl } of found) expect((await follow(fullUrl, stranger)).status).toBe(404);
    const observationId = found[0]!.resource.id as string;
    for (const reference of [
      'Observation/1-spo2',
      `Observation/${observationId}x`,
      `Observation/${observationId.replace(/-[0-9a-z]+-spo2$/, '-zz-spo2')}`,
      'Patient/wearer-x',
      `Patient/${deviceId}`,
    ]) {
      const missing = await fhir.get(`/fhir/R4/${reference}`, owner);
      expect(missing.status, reference).toBe(404);
    }
  });

  it('answers unknown paths with a 404 and other methods with a 405 and Allow, never the web page', async () => {
    for (const url of [
      '/fhir/R4/Medication',
      '/fhir/R4/Medication/1',
      '/fhir/R4',
      '/fhir/R4/',
      '/fhir/R4/Observation/a/b',
      '/fhir',
      '/fhir/R5/Observation',
      '/fhir/metadata',
    ]) {
      const res = await fhir.get(url, owner);
      expect(res.status, url).toBe(404);
      expect(res.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
    }
    for (const [method, url] of [
      ['POST', '/fhir/R4/Observation'],
      ['DELETE', `/fhir/R4/Device/${deviceId}`],
      ['PUT', '/fhir/R4/metadata'],
      ['POST', `/fhir/R4/Device/${deviceId}/$export`],
      ['PATCH', '/fhir/R4/Patient/x'],
    ] as const) {
      const res = await fhir.request(method, url, owner);
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.body).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ code: 'not-supported' }],
      });
    }
    expect((await fhir.request('POST', '/fhir/R4/Medication', owner)).status).toBe(404);
    const otherVersion = await fhir.request('POST', '/fhir/R5/Observation', owner);
    expect(otherVersion.status).toBe(404);
    expect(otherVersion.body).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await fhir.get(`/fhir/R4/Device/${deviceId}/history`, owner)).status).toBe(404);
    // A create is refused for its method, whatever its body (not a 415 or a 400 for the body).
    for (const payload of ['{"resourceType":"Observation"}', '{not json']) {
      const create = await fhir.request('POST', '/fhir/R4/Observation', owner, {
        type: 'application/fhir+json',
        payload,
      });
      expect(create.status).toBe(405);
      const json = { type: 'application/json', payload };
      expect((await fhir.request('PUT', `/fhir/R4/Device/${deviceId}`, owner, json)).status).toBe(405);
    }
  });

  it('describes what it does: reads, search parameters and $export with its OperationDefinition', async () => {
    const statement = (await fhir.get('/fhir/R4/metadata', null)).body;
    const rest = (statement.rest as { resource: Json[] }[])[0]!;
    const byType = new Map(rest.resource.map((r) => [r.type, r]));
    const codes = (type: string) =>
      ((byType.get(type)?.interaction ?? []) as { code: string }[]).map((i) => i.code);
    expect(codes('Observation')).toEqual(['read', 'search-type']);
    expect(codes('Patient')).toEqual(['read']);
    expect(codes('Device')).toEqual(['read']);
    expect((byType.get('Observation')!.searchParam as { name: string }[]).map((p) => p.name)).toEqual([
      'device',
      'date',
    ]);
    expect(statement.implementation).toMatchObject({ url: `${PUBLIC_URL}/fhir/R4` });
    const [operation] = byType.get('Device')!.operation as { name: string; definition: string }[];
    expect(operation!.name).toBe('export');
    const definition = (await follow(operation!.definition, null)).body;
    expect(definition).toMatchObject({
      resourceType: 'OperationDefinition',
      url: operation!.definition,
      kind: 'operation',
      code: 'export',
      resource: ['Device'],
      system: false,
      type: false,
      instance: true,
    });
    expect((definition.parameter as { name: string }[]).map((p) => p.name)).toEqual([
      '_since',
      '_until',
      '_outputFormat',
      'return',
    ]);
    expect((await fhir.get('/fhir/R4/OperationDefinition/other', null)).status).toBe(404);
  });

  it('$export writes a Bundle by default and ndjson on request, each resource valid', async () => {
    const bundle = await fhir.get(`/fhir/R4/Device/${deviceId}/$export?${since}`, owner);
    expect(entries(bundle.body).map((r) => r.resourceType)).toEqual([
      'Device',
      'Patient',
      'Observation',
      'Observation',
      'Observation',
    ]);
    for (const format of ['application/fhir%2Bndjson', 'application/ndjson', 'ndjson']) {
      const res = await fhir.get(
        `/fhir/R4/Device/${deviceId}/%24export?${since}&_outputFormat=${format}`,
        owner,
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/fhir+ndjson; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/\.ndjson"$/);
      expect(res.lines).toEqual(entries(bundle.body));
    }
    const refused = await fhir.get(`/fhir/R4/Device/${deviceId}/$export?_outputFormat=text/csv`, owner);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ issue: [{ expression: ['_outputFormat'] }] });
  });
});
