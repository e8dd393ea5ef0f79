import { type Contract, contracts, fullPathOf } from '@vitalwatch/shared';

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
  produces?: Contract['produces'];
}

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /healthz': { summary: 'Liveness: the process answers' },
  'GET /readyz': { summary: 'Readiness: database (and MQTT) reachable; 503 when not' },
  'GET /api/v1/openapi.json': { summary: 'This OpenAPI document' },
};

/** Every contract, as `METHOD /full/path`: the routes the contracts register. */
export const CONTRACT_ROUTES: Record<string, Contract> = Object.fromEntries(
  Object.values(contracts).flatMap((group) =>
    Object.values(group).map((contract: Contract) => [
      `${contract.method} ${fullPathOf(contract)}`,
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
