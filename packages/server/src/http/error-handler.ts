import { type ErrorBody, SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isTransientDbError } from '../db/transient-error.ts';
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

/** Retry-After of a 503 for a database that was busy or out of reach for a moment. */
const DATABASE_BUSY_RETRY_SECONDS = 1;

/**
 * The one error handler: domain errors by their code (HTTP_ERRORS), validation as 400 with field
 * issues, a database busy for a moment as 503 with Retry-After, the rest a logged 500.
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
  if (isTransientDbError(error)) {
    // Busy or out of reach for a moment: the caller may send it again (a device does, after Retry-After).
    request.log.warn({ err: error }, 'database busy or unreachable: answered 503');
    return send(reply.header('retry-after', String(DATABASE_BUSY_RETRY_SECONDS)), 503, {
      success: false,
      message: SERVER_MESSAGES.databaseBusy,
      code: 'BUSY',
    });
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, {
    success: false,
    message: `${SERVER_MESSAGES.internal} (request ${request.id})`,
    code: 'INTERNAL',
  });
}
