import { expect } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { fhirValidator, type Json } from './fhir-validate.ts';
import type { TestUser } from './helpers.ts';

export { fhirValidator, type Json };

export interface FhirAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The resource answered (an OperationOutcome for an error). */
  body: Json;
  /** An ndjson answer: its resources, one per line. */
  lines: Json[];
}

/**
 * The one way FHIR tests call the server: every answer must be FHIR (JSON or ndjson) and every
 * resource in it valid for both validators, or the test fails here.
 */
export function fhirClient(built: () => BuiltApp) {
  async function request(
    method: string,
    url: string,
    who: TestUser | null,
    body?: { type: string; payload: string },
  ): Promise<FhirAnswer> {
    const res = await built().app.inject({
      method: method as 'GET',
      url,
      headers: { ...who?.auth, ...(body ? { 'content-type': body.type } : {}) },
      ...(body ? { payload: body.payload } : {}),
    });
    const type = String(res.headers['content-type']);
    expect(type, `${method} ${url}: ${res.body.slice(0, 200)}`).toMatch(
      /^application\/fhir\+(nd)?json; charset=utf-8$/,
    );
    const validate = await fhirValidator();
    const ndjson = type.startsWith('application/fhir+ndjson');
    const resources: Json[] = ndjson
      ? res.body
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line))
      : [res.json<Json>()];
    for (const resource of resources) expect(validate(resource), `${method} ${url}`).toEqual([]);
    return {
      status: res.statusCode,
      headers: res.headers,
      body: ndjson ? { resourceType: 'ndjson' } : resources[0]!,
      lines: ndjson ? resources : [],
    };
  }
  return {
    request,
    get: (url: string, who: TestUser | null) => request('GET', url, who),
  };
}

/** The resources of a Bundle's entries. */
export const entries = (bundle: Json) =>
  ((bundle.entry as { resource: Json }[] | undefined) ?? []).map((e) => e.resource);

/** The URL of a Bundle's link `relation`, as a path and query for `inject`. */
export function linkOf(bundle: Json, relation: string): string | undefined {
  const link = (bundle.link as { relation: string; url: string }[]).find((l) => l.relation === relation);
  return link ? new URL(link.url).pathname + new URL(link.url).search : undefined;
}
