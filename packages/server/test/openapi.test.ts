import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_ROUTES } from '../src/http/route-docs.ts';
import { dbTargets, useTestApp } from './helpers.ts';
import { useMqttApp } from './mqtt-helpers.ts';
import { type Document, fetchDocument, operationsOf } from './openapi-document.ts';
import { serviceUrl } from './realtime-helpers.ts';

/**
 * Warnings of Redocly's `recommended` rules that stay, and why: there is no licence to name, and
 * these operations have no 4xx answer at all (no input, no auth, no limit).
 */
const ACCEPTED_WARNINGS = [
  'info-license #/info',
  'operation-4xx-response #/paths/~1healthz/get/responses',
  'operation-4xx-response #/paths/~1readyz/get/responses',
  'operation-4xx-response #/paths/~1api~1v1~1openapi.json/get/responses',
  'operation-4xx-response #/paths/~1api~1v1~1push~1public-key/get/responses',
  'operation-4xx-response #/paths/~1fhir~1R4~1metadata/get/responses',
];

const [pglite] = dbTargets();
const mqttUrl = serviceUrl('TEST_MQTT_URL');
const isBrokerHook = (route: string) => route.startsWith('POST /api/v1/mqtt/');

/** Redocly's `recommended` rules: no errors, and no warning but the accepted ones. */
async function expectLintClean(document: Document) {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer} ${p.message}`);
  expect(found.filter((p) => p.startsWith('error'))).toEqual([]);
  const warnings = problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
  expect(warnings.sort()).toEqual([...ACCEPTED_WARNINGS].sort());
}

const routesOf = (document: Document) =>
  operationsOf(document).map(({ method, path }) => `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`);

describe('the OpenAPI document (GET /api/v1/openapi.json)', () => {
  const built = useTestApp(pglite!);

  it("passes Redocly's recommended rules with no errors, and only the accepted warnings", async () => {
    await expectLintClean(await fetchDocument(built()));
  });

  it('is a valid OpenAPI document (swagger-parser)', async () => {
    const document = await fetchDocument(built());
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('has a summary for every route, and no summary of a route that is gone', async () => {
    const documented = routesOf(await fetchDocument(built()));
    // The broker's hooks exist only with MQTT_URL (below).
    const expected = DOCUMENTED_ROUTES.filter((route) => !isBrokerHook(route));
    expect(documented.sort()).toEqual(expected.sort());
  });

  it('says how each operation authenticates: bearer, the device key, or nothing', async () => {
    const document = await fetchDocument(built());
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual(['bearer', 'deviceKey']);
    const security = Object.fromEntries(
      operationsOf(document).map(({ method, path, operation }) => [`${method} ${path}`, operation.security]),
    );
    expect(Object.values(security).every((s) => Array.isArray(s))).toBe(true);
    expect(security['POST /api/v1/ingest/health']).toEqual([{ deviceKey: [] }]);
    expect(security['POST /api/v1/ingest/alert']).toEqual([{ deviceKey: [] }]);
    expect(security['POST /api/v1/user/login']).toEqual([]);
    expect(security['GET /api/v1/shared/{token}']).toEqual([]);
    expect(security['GET /api/v1/user/profile']).toEqual([{ bearer: [] }]);
    expect(security['POST /api/v1/admin/stats']).toEqual([{ bearer: [] }]);
  });

  it('documents the error answers each route can give, with the shared error body', async () => {
    const document = await fetchDocument(built());
    const statuses = (method: 'get' | 'post', path: string) =>
      Object.keys(document.paths?.[path]?.[method]?.responses ?? {});
    expect(statuses('post', '/api/v1/admin/edit-user/{id}')).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '409', '413']),
    );
    expect(statuses('post', '/api/v1/user/login')).toEqual(expect.arrayContaining(['400', '401', '429']));
    expect(statuses('post', '/api/v1/ingest/health')).toEqual(
      expect.arrayContaining(['202', '400', '401', '403', '413', '429']),
    );
    expect(statuses('get', '/api/v1/user/profile')).toEqual(['200', '401']);
    // The readiness probe's "not ready" is its own body, not an error.
    expect(statuses('get', '/readyz')).toEqual(['200', '503']);
    expect(document.paths?.['/api/v1/ingest/health']?.post?.responses?.['202']).toMatchObject({
      description: expect.stringContaining('Accepted'),
    });
    expect(document.components?.responses?.BadRequest).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    });
    expect(document.components?.schemas?.ErrorBody).toMatchObject({
      required: ['success', 'message', 'code'],
      properties: { issues: { type: 'array' } },
    });
  });

  it('documents the device payloads: one item, or an array of at most 500', async () => {
    const document = await fetchDocument(built());
    for (const [path, item] of [
      ['/api/v1/ingest/health', 'HealthReadingInput'],
      ['/api/v1/ingest/alert', 'AlertEventInput'],
    ] as const) {
      const body = document.paths?.[path]?.post?.requestBody;
      const ref = { $ref: `#/components/schemas/${item}` };
      expect(body).toMatchObject({
        content: {
          'application/json': {
            schema: { oneOf: [ref, { type: 'array', items: ref, minItems: 1, maxItems: 500 }] },
          },
        },
      });
    }
    expect(document.components?.schemas?.HealthReadingInput).toMatchObject({
      properties: { heartRate: { type: 'number' }, messageId: { type: 'string' } },
      additionalProperties: false,
    });
  });

  it('says what the server enforces: a share link lasts 1, 7 or 30 days; optional bodies', async () => {
    const document = await fetchDocument(built());
    expect(document.paths?.['/api/v1/share/create']?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { properties: { days: { enum: [1, 7, 30] } } } } },
    });
    // Logout and a health fetch take a body or none at all.
    expect(document.paths?.['/api/v1/user/logout']?.post?.requestBody).toMatchObject({ required: false });
    expect(document.paths?.['/api/v1/health/fetch/{deviceId}']?.post?.requestBody).toMatchObject({
      required: false,
    });
    expect(document.paths?.['/api/v1/share/create']?.post?.requestBody).toMatchObject({ required: true });
    // FHIR search takes no `unit` (the caller's own setting decides); it is not offered either.
    const search = document.paths?.['/fhir/R4/Observation']?.get?.parameters as { name: string }[];
    expect(search.map((p) => p.name).sort()).toEqual(['_count', '_cursor', 'date', 'device']);
  });
});

describe.skipIf(!mqttUrl)('the OpenAPI document with an external broker (MQTT_URL)', () => {
  const built = useMqttApp(pglite!, () => ({ mqttUrl }));

  it("documents the broker's hooks (public, rate limited) and still lints clean", async () => {
    const document = await fetchDocument(built());
    await expectLintClean(document);
    const hooks = routesOf(document).filter(isBrokerHook);
    expect(hooks.sort()).toEqual(DOCUMENTED_ROUTES.filter(isBrokerHook).sort());
    const auth = document.paths?.['/api/v1/mqtt/auth']?.post;
    expect(auth?.security).toEqual([]);
    expect(Object.keys(auth?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '429']));
  });
});
