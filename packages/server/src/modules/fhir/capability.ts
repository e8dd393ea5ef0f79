import { EXPORT_MAX_RANGE_DAYS } from '@vitalwatch/shared';
import { DATE_PREFIXES } from './dates.ts';
import type { FhirResource } from './resources.ts';

/** What `$export` writes: one collection Bundle (the default), or one resource per line. */
export const EXPORT_FORMATS = {
  bundle: 'application/fhir+json',
  ndjson: 'application/fhir+ndjson',
} as const;
/** The id of the OperationDefinition of `Device/<id>/$export`, read at `OperationDefinition/<id>`. */
export const EXPORT_OPERATION_ID = 'Device-export';
/** Observations per searchset page unless `_count` says otherwise. */
export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 1000;

const VITAL_PROFILES = ['oxygensat', 'heartrate', 'bodytemp'].map(
  (p) => `http://hl7.org/fhir/StructureDefinition/${p}`,
);

/** `GET /fhir/R4/metadata`: what this server answers, at `base` (absolute, no trailing slash). */
export function capabilityStatement(base: string): FhirResource {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-11-25',
    kind: 'instance',
    software: { name: 'VitalWatch' },
    implementation: { description: 'VitalWatch vital signs, read only', url: base },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        security: { description: 'Authorization: Bearer <VitalWatch access token>' },
        resource: [
          {
            type: 'Observation',
            documentation: `Searchset pages hold up to _count Observations (1-${MAX_COUNT}, default ${DEFAULT_COUNT}), with a next link while more remain.`,
            profile: 'http://hl7.org/fhir/StructureDefinition/vitalsigns',
            supportedProfile: VITAL_PROFILES,
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              {
                name: 'device',
                definition: 'http://hl7.org/fhir/SearchParameter/Observation-device',
                type: 'reference',
                documentation: 'Required: Device/<id> or <id>, a device the caller may see.',
              },
              {
                name: 'date',
                definition: 'http://hl7.org/fhir/SearchParameter/clinical-date',
                type: 'date',
                documentation:
                  `Prefixes ${DATE_PREFIXES.join(', ')}; a value is the range of its precision (UTC ` +
                  'without a time zone); several date parameters AND, commas OR. The matched period spans ' +
                  `at most ${EXPORT_MAX_RANGE_DAYS} days; without a lower bound it starts a day before its ` +
                  'end, without an upper bound it ends now.',
              },
            ],
          },
          { type: 'Patient', interaction: [{ code: 'read' }] },
          {
            type: 'Device',
            interaction: [{ code: 'read' }],
            operation: [{ name: 'export', definition: `${base}/OperationDefinition/${EXPORT_OPERATION_ID}` }],
          },
          { type: 'OperationDefinition', interaction: [{ code: 'read' }] },
        ],
      },
    ],
  };
}

/** `OperationDefinition/Device-export`: what `GET Device/<id>/$export` is. */
export function exportOperationDefinition(base: string): FhirResource {
  return {
    resourceType: 'OperationDefinition',
    id: EXPORT_OPERATION_ID,
    url: `${base}/OperationDefinition/${EXPORT_OPERATION_ID}`,
    name: 'DeviceExport',
    title: 'Download a device and its vital signs',
    status: 'active',
    kind: 'operation',
    affectsState: false,
    description:
      'Synchronous: answers at once (not the asynchronous Bulk Data kick-off) with the Device, its ' +
      `wearer (Patient) and every vital-signs Observation of a period of at most ${EXPORT_MAX_RANGE_DAYS} ` +
      `days, as one collection Bundle (${EXPORT_FORMATS.bundle}) or as one resource per line ` +
      `(${EXPORT_FORMATS.ndjson}).`,
    code: 'export',
    resource: ['Device'],
    system: false,
    type: false,
    instance: true,
    parameter: [
      {
        name: '_since',
        use: 'in',
        min: 0,
        max: '1',
        type: 'dateTime',
        documentation: 'Observations at or after this date (as date=ge); default: a day before _until.',
      },
      {
        name: '_until',
        use: 'in',
        min: 0,
        max: '1',
        type: 'dateTime',
        documentation: 'Observations up to the end of this date (as date=le); default: now.',
      },
      {
        name: '_outputFormat',
        use: 'in',
        min: 0,
        max: '1',
        type: 'string',
        documentation: `${EXPORT_FORMATS.bundle} (default) or ${EXPORT_FORMATS.ndjson} (also application/ndjson, ndjson).`,
      },
      {
        name: 'return',
        use: 'out',
        min: 1,
        max: '1',
        type: 'Bundle',
        documentation: `The collection Bundle; with ${EXPORT_FORMATS.ndjson}, its resources one per line instead.`,
      },
    ],
  };
}
