import { type Contract, contracts } from '@vitalwatch/shared';

/**
 * What the API document cannot derive from a route's schemas and hooks, for the routes that have
 * no contract yet (a contract in packages/shared says the same of its own route): its summary, and the
 * error answers that come from its service rather than from its auth, input or rate limit (a
 * record it names that the caller may not see: 404; a clash with what is stored: 409; a refused
 * credential on a public route: 401; a dependency that cannot serve now: 503). Keyed by method
 * and Fastify path; every route has an entry (the API document test checks both ways).
 */
export interface RouteDoc {
  summary: string;
  errors?: readonly number[];
  /** The media type of a success that has no response schema (a file, a FHIR resource). */
  produces?:
    | 'text/csv'
    | 'application/pdf'
    | 'application/zip'
    | 'application/fhir+json'
    | 'application/octet-stream';
}

const record = [404] as const;

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /healthz': { summary: 'Liveness: the process answers' },
  'GET /readyz': { summary: 'Readiness: database (and MQTT) reachable; 503 when not' },
  'GET /api/v1/openapi.json': { summary: 'This OpenAPI document' },

  'POST /api/v1/ingest/health': { summary: 'Device: send one reading or a batch', errors: [503] },
  'POST /api/v1/ingest/alert': { summary: 'Device: send one alert event or a batch', errors: [503] },
  'POST /api/v1/ingest/device-info': {
    summary: 'Device: its make and model (a Bluetooth gateway reads them)',
  },

  'POST /api/v1/mqtt/auth': { summary: 'External broker (MQTT_URL): may this client connect?' },
  'POST /api/v1/mqtt/acl': { summary: 'External broker (MQTT_URL): may this client use this topic?' },

  'GET /fhir/R4/metadata': { summary: 'FHIR CapabilityStatement', produces: 'application/fhir+json' },
  'GET /fhir/R4/Device/:id': { summary: 'FHIR Device', errors: record, produces: 'application/fhir+json' },
  'GET /fhir/R4/Observation': {
    summary: 'FHIR vital-signs Observations of a device',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/Observation/:id': {
    summary: 'FHIR Observation (a search entry’s fullUrl)',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/Patient/:id': {
    summary: 'FHIR Patient: the wearer of a device',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/OperationDefinition/:id': {
    summary: 'FHIR OperationDefinition of $export',
    errors: record,
    produces: 'application/fhir+json',
  },
  'GET /fhir/R4/Device/:id/$export': {
    summary: "FHIR Bundle of a device's period",
    errors: record,
    produces: 'application/fhir+json',
  },
};

/** Every contract, as `METHOD /full/path`: the routes the contracts register. */
export const CONTRACT_ROUTES: Record<string, Contract> = Object.fromEntries(
  Object.values(contracts).flatMap((group) =>
    Object.values(group).map((contract: Contract) => [
      `${contract.method} /api/v1${contract.path}`,
      contract,
    ]),
  ),
);

/** Every documented route, as `METHOD /full/path`: those of a contract and those of ROUTE_DOCS. */
export const DOCUMENTED_ROUTES = [...Object.keys(CONTRACT_ROUTES), ...Object.keys(ROUTE_DOCS)];

/** A route's summary and service errors: from the contract it was registered from, else ROUTE_DOCS. */
export function docOf(method: string, url: string, contract: Contract | undefined): RouteDoc | undefined {
  if (contract) return { summary: contract.summary, errors: contract.errors, produces: contract.produces };
  return ROUTE_DOCS[`${method} ${url}`];
}
