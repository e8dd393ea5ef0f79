import type { SwaggerOptions } from '@fastify/swagger';
import {
  alertEvent,
  documentedBodies,
  errorBody,
  healthReading,
  operationOutcomeBody,
} from '@vitalwatch/shared';
import type { RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { type AuthRequirement, requirementOf } from '../auth/requirement.ts';
import { completeOperations, pruneUnusedSchemas } from './openapi-errors.ts';
import { docOf } from './route-docs.ts';

/** The schemas the document names (components) instead of repeating them inline. */
const components = z.registry<{ id: string }>();
components.add(errorBody, { id: 'ErrorBody' });
components.add(operationOutcomeBody, { id: 'OperationOutcome' });
components.add(healthReading, { id: 'HealthReading' });
components.add(alertEvent, { id: 'AlertEvent' });

const zodTransform = createJsonSchemaTransform({ schemaRegistry: components });
const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: components });

/** Where an operation's error answers come from; read back (and removed) by `completeOperations`. */
const ERRORS_KEY = 'x-vitalwatch-errors';

const SECURITY: Record<AuthRequirement, Record<string, string[]>> = {
  'signed-in': { bearer: [] },
  role: { bearer: [] },
  device: { deviceKey: [] },
};

const TAGS: Record<string, string> = {
  service: 'Probes and this document',
  user: 'Account, sign-in and settings',
  device: "A user's devices",
  health: 'Readings',
  alert: 'Alerts, acknowledgement and snoozes',
  ingest: 'Devices send readings and events (X-Api-Key)',
  export: 'CSV and PDF downloads',
  share: 'Read-only share links (owner)',
  shared: 'Read-only share links (anyone with the link)',
  admin: 'Administration (admin role)',
  push: 'Web push browsers',
  mqtt: "An external MQTT broker's HTTP auth hooks (only with MQTT_URL)",
  fhir: 'FHIR R4 (read only)',
};

const tagOf = (url: string) => {
  if (url.startsWith('/fhir/')) return 'fhir';
  const area = url.match(/^\/api\/v1\/([^/]+)\//)?.[1];
  return area && area in TAGS ? area : 'service';
};

/** `POST /api/v1/admin/edit-user/:id` → `postAdminEditUser`: unique, and stable while the path is. */
/** `GET /fhir/R4/Observation/:id` → `getFhirR4ObservationById`: a parameter is named, so a read and a search differ. */
const operationIdOf = (method: string, url: string) =>
  [method.toLowerCase(), ...url.replace(/^\/api\/v1\//, '').split('/')]
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by ${part.slice(1)}` : part))
    .map((part) => part.replace(/[^A-Za-z0-9]+/g, ' ').trim())
    .join(' ')
    .replace(/ (\w)/g, (_, c: string) => c.toUpperCase());

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The error answers a route can give, derived once from what it declares: its auth (401, 403,
 * 429 for devices), its input (400 for schemas or a JSON body), a body at all (413, 415), a rate
 * limit (429), plus those its service gives (its contract, or ROUTE_DOCS).
 */
function errorStatuses(route: RouteOptions, method: string, extra: readonly number[] = []): number[] {
  const requirement = requirementOf(route.onRequest);
  const schema = route.schema ?? {};
  const hasBody = BODY_METHODS.has(method);
  const statuses = new Set(extra);
  if (hasBody || schema.body || schema.params || schema.querystring) statuses.add(400);
  if (requirement) statuses.add(401);
  if (requirement === 'role' || requirement === 'device') statuses.add(403);
  if (hasBody) {
    statuses.add(413);
    statuses.add(415);
  }
  const config = route.config as { rateLimit?: unknown } | undefined;
  if (config?.rateLimit || requirement === 'device') statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** A body schema that also takes no body at all (`.nullish()`): its requestBody is not required. */
const isOptional = (body: unknown) => body instanceof z.ZodType && body.safeParse(undefined).success;

type TransformInput = Parameters<typeof zodTransform>[0];

/** Per route: the zod schemas as JSON schema, plus its summary, tag, id, security and errors. */
function transform(input: TransformInput) {
  const route = input.route as RouteOptions;
  const method = [route.method].flat()[0] ?? 'GET';
  const schema = input.schema ?? {};
  if (schema.hide) return zodTransform(input);
  const doc = docOf(method, input.url, route.config?.contract);
  const requirement = requirementOf(route.onRequest);
  const body = schema.body && documentedBodies.get(schema.body as z.ZodType);
  const result = zodTransform({ ...input, schema: { ...schema, ...(body ? { body } : {}) } });
  return {
    url: result.url,
    schema: {
      ...result.schema,
      summary: doc?.summary,
      operationId: operationIdOf(method, input.url),
      tags: [tagOf(input.url)],
      security: requirement ? [SECURITY[requirement]] : [],
      [ERRORS_KEY]: {
        statuses: errorStatuses(route, method, doc?.errors),
        fhir: input.url.startsWith('/fhir/'),
        produces: doc?.produces,
        optionalBody: isOptional(schema.body),
      },
    },
  };
}

/** The whole document: the named schemas, each operation's error answers, nothing unused. */
function transformObject(input: Parameters<typeof zodTransformObject>[0]) {
  const document = zodTransformObject(input) as OpenAPIV3_1.Document;
  completeOperations(document, ERRORS_KEY);
  pruneUnusedSchemas(document);
  return document;
}

/**
 * @fastify/swagger's options: the document's frame, and the transforms above. OpenAPI 3.1, whose
 * schemas are JSON Schema 2020-12: tuples (the history buckets) and nulls say exactly what is sent.
 */
export function openApiOptions(description: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'VitalWatch API',
        version: '1.0.0',
        description,
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: Object.entries(TAGS).map(([name, text]) => ({ name, description: text })),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The access token of POST /api/v1/user/login (15 minutes).',
          },
          deviceKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: "A device's API code, for /api/v1/ingest/*.",
          },
        },
      },
    },
    transform,
    transformObject,
  };
}
