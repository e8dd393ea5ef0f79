import { z } from 'zod';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/** Where FHIR R4 is served: outside `/api/v1`, in FHIR JSON. */
export const FHIR_BASE = '/fhir/R4';

export const fhirIdParams = z.object({ id: z.string().max(64) });

const list = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : [v].flat()));

/** An Observation search: the device, `date` bounds (repeatable), a page size and a cursor. */
export const fhirSearchQuery = z.object({
  device: z.string().optional(),
  date: list,
  _count: z.string().optional(),
  _cursor: z.string().optional(),
});

/** A `$export`: its period and output format. */
export const fhirExportQuery = z.object({
  _since: z.string().optional(),
  _until: z.string().optional(),
  _outputFormat: z.string().optional(),
});

const fhir = 'application/fhir+json';

/** `/fhir/R4/*` (read only): every answer a FHIR resource; what the caller may not see is 404. */
export const fhirContracts = defineContracts(
  '',
  'signed-in',
  {
    metadata: {
      method: 'GET',
      path: '/metadata',
      auth: 'public',
      summary: 'FHIR CapabilityStatement',
      produces: fhir,
    },
    operationDefinition: {
      method: 'GET',
      path: '/OperationDefinition/:id',
      auth: 'public',
      summary: 'FHIR OperationDefinition of $export',
      params: fhirIdParams,
      errors: RECORD_ERRORS,
      produces: fhir,
    },
    device: {
      method: 'GET',
      path: '/Device/:id',
      summary: 'FHIR Device',
      params: fhirIdParams,
      errors: RECORD_ERRORS,
      produces: fhir,
    },
    patient: {
      method: 'GET',
      path: '/Patient/:id',
      summary: 'FHIR Patient: the wearer of a device',
      params: fhirIdParams,
      errors: RECORD_ERRORS,
      produces: fhir,
    },
    observation: {
      method: 'GET',
      path: '/Observation/:id',
      summary: 'FHIR Observation (a search entry’s fullUrl)',
      params: fhirIdParams,
      errors: RECORD_ERRORS,
      produces: fhir,
    },
    search: {
      method: 'GET',
      path: '/Observation',
      summary: 'FHIR vital-signs Observations of a device',
      query: fhirSearchQuery,
      errors: RECORD_ERRORS,
      produces: fhir,
    },
    export: {
      method: 'GET',
      path: '/Device/:id/$export',
      summary: "FHIR Bundle of a device's period",
      params: fhirIdParams,
      query: fhirExportQuery,
      errors: RECORD_ERRORS,
      produces: fhir,
    },
  },
  FHIR_BASE,
);
