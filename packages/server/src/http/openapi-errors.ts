import type { OpenAPIV3_1 } from 'openapi-types';

type Document = OpenAPIV3_1.Document;
type Response = OpenAPIV3_1.ResponseObject;

const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before sending again.', schema: { type: 'integer' } },
} as const;

/** The answers every error status gives, under its name in `components.responses`. */
const ERRORS: Record<number, { name: string; description: string; retry?: boolean }> = {
  400: {
    name: 'BadRequest',
    description:
      'The input is not valid (code VALIDATION_ERROR): `issues` names each field (`path`, dotted) ' +
      'and what is wrong with it; `message` repeats the first. A body that is not JSON is also a 400.',
  },
  401: { name: 'Unauthorized', description: 'No valid credentials (code UNAUTHENTICATED).' },
  403: {
    name: 'Forbidden',
    description: 'Known, but not allowed: another role, or a disabled device (code FORBIDDEN).',
  },
  404: {
    name: 'NotFound',
    description: 'No such record, or one the caller may not see (code NOT_FOUND).',
  },
  409: {
    name: 'Conflict',
    description: 'Clashes with what is stored (code CONFLICT, LAST_ADMIN, HAS_DEVICES or SELF_DELETE).',
  },
  410: {
    name: 'Gone',
    description: 'A mailed link that no longer works (code LINK_EXPIRED or LINK_USED): ask for a new one.',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is too large (code PAYLOAD_TOO_LARGE).' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not sent as application/json.' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many requests from this caller: send again after Retry-After (code RATE_LIMITED).',
    retry: true,
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'Cannot serve this now (code BUSY: send again after Retry-After; PUSH_NOT_CONFIGURED: the ' +
      'server has no push keys).',
    retry: true,
  },
};

/** What an answer says where the route gave no description (Fastify swagger's "Default Response"). */
const DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: stored, or counted as a duplicate of one stored before',
  503: 'Not ready',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function operations(document: Document) {
  const found: Record<string, unknown>[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) if (isObject(operation)) found.push(operation);
  }
  return found;
}

function errorResponse(status: number, fhir: boolean): Response {
  const error = ERRORS[status];
  if (!error) throw new Error(`no documented answer for status ${status}`);
  const media = fhir ? 'application/fhir+json' : 'application/json';
  const schema = { $ref: `#/components/schemas/${fhir ? 'OperationOutcome' : 'ErrorBody'}` };
  return {
    description: error.description,
    ...(error.retry ? { headers: retryAfter } : {}),
    content: { [media]: { schema } },
  };
}

/** The success of a route that sends a file or a FHIR resource rather than the JSON envelope. */
function fileResponse(media: string): Response {
  const schema =
    media === 'application/fhir+json'
      ? {
          type: 'object' as const,
          required: ['resourceType'],
          properties: { resourceType: { type: 'string' as const } },
        }
      : {
          type: 'string' as const,
          ...(media === 'application/pdf' || media === 'application/zip' ? { format: 'binary' } : {}),
        };
  return { description: 'OK', content: { [media]: { schema } } };
}

/**
 * Replaces each operation's `key` (what the route transform found) with its error answers: the
 * API's envelope as shared `components.responses`, FHIR's OperationOutcome inline (its media type
 * differs). Also its file success, and `required: false` for a body that may be absent.
 */
export function completeOperations(document: Document, key: string): void {
  const shared: Record<string, Response> = {};
  for (const operation of operations(document)) {
    const errors = operation[key] as
      | { statuses: number[]; fhir: boolean; produces?: string; optionalBody: boolean }
      | undefined;
    delete operation[key];
    if (!errors) continue;
    if (errors.optionalBody && isObject(operation.requestBody)) operation.requestBody.required = false;
    const responses = (operation.responses ?? {}) as Record<string, unknown>;
    if (errors.produces) responses[200] = fileResponse(errors.produces);
    for (const [status, response] of Object.entries(responses)) {
      const description = DESCRIPTIONS[status];
      if (description && isObject(response) && response.description === 'Default Response')
        response.description = description;
    }
    for (const status of errors.statuses) {
      if (errors.fhir) {
        responses[status] = errorResponse(status, true);
        continue;
      }
      const name = ERRORS[status]?.name ?? String(status);
      shared[name] = errorResponse(status, false);
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
    operation.responses = responses;
  }
  document.components = { ...document.components, responses: shared };
}

const refsIn = (value: unknown) =>
  [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] as string);

/** Drops the component schemas nothing refers to (the registry makes an input and an output of each). */
export function pruneUnusedSchemas(document: Document): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const { schemas: _all, ...rest } = document.components ?? {};
  const used = new Set(refsIn({ ...document, components: rest }));
  const queue = [...used];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const ref of refsIn(schemas[name])) {
      if (!used.has(ref)) {
        used.add(ref);
        queue.push(ref);
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
