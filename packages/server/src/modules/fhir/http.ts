import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppInstance } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { HTTP_ERRORS } from '../../http/error-status.ts';
import { operationOutcome } from './resources.ts';

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** A FHIR refusal: rendered as an OperationOutcome with its status. */
export class FhirError extends Error {
  readonly status: number;
  readonly code: string;
  readonly expression?: string;

  constructor(status: number, code: string, message: string, expression?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.expression = expression;
  }
}
export const invalid = (message: string, expression: string) =>
  new FhirError(400, 'invalid', message, expression);
export const notFound = (message: string) => new FhirError(404, 'not-found', message);

/** The OperationOutcome issue code of an HTTP status. */
const ISSUE_CODES: Record<number, string> = {
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  413: 'too-long',
  415: 'not-supported',
  429: 'throttled',
  503: 'transient',
};

const outcome = (reply: FastifyReply, status: number, message: string, expression?: string) =>
  reply
    .code(status)
    .type(FHIR_JSON)
    .send(
      operationOutcome(ISSUE_CODES[status] ?? (status < 500 ? 'invalid' : 'exception'), message, expression),
    );

/** Every error under /fhir/R4 as an OperationOutcome; unknown ones a logged 500 that says nothing more. */
export function fhirErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof FhirError)
    return reply
      .code(err.status)
      .type(FHIR_JSON)
      .send(operationOutcome(err.code, err.message, err.expression));
  if (err instanceof DomainError) return outcome(reply, HTTP_ERRORS[err.code].status, err.message);
  if (err.validation) return outcome(reply, 400, err.message);
  // Fastify's own client errors (a malformed body, an unknown content type): their messages are safe.
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    return outcome(reply, err.statusCode, err.message);
  request.log.error({ err }, 'fhir request failed');
  return outcome(reply, 500, 'Internal server error');
}

/** The paths this server answers (below /fhir/R4) and their methods (HEAD comes with every GET). */
const KNOWN_PATHS = [
  /^\/metadata$/,
  /^\/Observation$/,
  /^\/(Observation|Patient|Device|OperationDefinition)\/[^/]+$/,
  /^\/Device\/[^/]+\/\$export$/,
];
const ALLOW = 'GET, HEAD';

/**
 * Whatever else arrives below /fhir/R4 is FHIR too, never the web app's page: a known path asked
 * with another method is 405 with `Allow`, anything else 404. Other methods reach the scope's
 * not-found handler; GET and HEAD need routes of their own, or the web app's catch-all (`/*`)
 * would answer them with its page.
 */
export function answerUnknownPaths(app: AppInstance) {
  const prefix = app.prefix;
  const unknown = async (request: FastifyRequest, reply: FastifyReply) => {
    let path = request.url.split('?')[0]!.slice(prefix.length);
    try {
      path = decodeURIComponent(path);
    } catch {
      // Not percent-encoded text: no path of ours.
    }
    // GET and HEAD are what Allow names: arriving here, they asked for a path this server lacks.
    const allowed = request.method === 'GET' || request.method === 'HEAD';
    if (!allowed && KNOWN_PATHS.some((known) => known.test(path))) {
      reply.header('allow', ALLOW);
      return outcome(reply, 405, `${request.method} is not supported here; use ${ALLOW}`);
    }
    return outcome(reply, 404, `${path || '/'} is not a FHIR path of this server`);
  };
  // Nothing here takes a body: a create or an update is refused for its method, whatever it carries.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.setNotFoundHandler(unknown);
  // Not API reference material: these routes only refuse.
  app.get('/', { schema: { hide: true } }, unknown);
  app.get('/*', { schema: { hide: true } }, unknown);
}

/**
 * `/fhir` itself and every FHIR version but R4 (`/fhir/R5/…`, `/fhir/metadata`): a 404
 * OperationOutcome that says where R4 is, for any method, never the web app's page.
 */
export async function fhirOtherVersions(app: AppInstance) {
  const elsewhere = async (request: FastifyRequest, reply: FastifyReply) =>
    outcome(reply, 404, `${request.url.split('?')[0]} is not served: FHIR R4 is at /fhir/R4`);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.setNotFoundHandler(elsewhere);
  app.get('/', { schema: { hide: true } }, elsewhere);
  app.get('/*', { schema: { hide: true } }, elsewhere);
}
