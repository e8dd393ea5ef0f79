import { type ErrorBody, SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError } from '../errors.ts';
import { HTTP_ERRORS, httpErrorHeaders } from './error-status.ts';

const send = (reply: FastifyReply, status: number, body: ErrorBody) => reply.code(status).send(body);

/**
 * An onError hook: the headers of a domain error (Retry-After, WWW-Authenticate, Allow). Hooks run
 * before the error handler of the route's scope, so they go with FHIR's OperationOutcome as well.
 */
export async function domainErrorHeaders(_request: FastifyRequest, reply: FastifyReply, error: Error) {
  if (error instanceof DomainError) reply.headers(httpErrorHeaders(error.code, error.details));
}

/**
 * The one error handler: domain errors by their code (HTTP_ERRORS), validation as 400 with field
 * issues, the rest a logged 500.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError) {
    const { status, code } = HTTP_ERRORS[error.code];
    return send(reply, status, {
      success: false,
      message: error.message,
      code,
      ...(error.issues ? { issues: error.issues } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: v.message ?? 'Invalid value',
    }));
    return send(reply, 400, {
      success: false,
      message: issues[0]?.message ?? SERVER_MESSAGES.validation,
      code: 'VALIDATION_ERROR',
      issues,
    });
  }
  if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return send(reply, 413, {
      success: false,
      message: SERVER_MESSAGES.payloadTooLarge,
      code: 'PAYLOAD_TOO_LARGE',
    });
  }
  if (error.statusCode === 429) {
    return send(reply, 429, { success: false, message: SERVER_MESSAGES.rateLimited, code: 'RATE_LIMITED' });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own client errors: malformed JSON, wrong content type, …; their messages are safe.
    return send(reply, error.statusCode, {
      success: false,
      message: error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Malformed JSON body' : error.message,
      code: error.code ?? 'BAD_REQUEST',
    });
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, {
    success: false,
    message: `${SERVER_MESSAGES.internal} (request ${request.id})`,
    code: 'INTERNAL',
  });
}
