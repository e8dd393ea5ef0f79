import type { FieldIssue } from '@vitalwatch/shared';
import { SERVER_MESSAGES } from '@vitalwatch/shared';

/** The one error family: a status, a machine code and a message safe to show. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, issues?: FieldIssue[]) =>
  new AppError(400, 'VALIDATION_ERROR', message, issues);
export const unauthorized = (message: string = SERVER_MESSAGES.unauthenticated) =>
  new AppError(401, 'UNAUTHENTICATED', message);
export const forbidden = (message: string = SERVER_MESSAGES.forbidden) =>
  new AppError(403, 'FORBIDDEN', message);
export const notFound = (message: string = SERVER_MESSAGES.notFound) =>
  new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, issues?: FieldIssue[]) =>
  new AppError(409, 'CONFLICT', message, issues);
/** Nothing was done; the same request may succeed shortly (a full ingest queue). */
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new AppError(503, 'BUSY', message, undefined, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', message, undefined, {
    'retry-after': String(Math.max(1, retryAfterSeconds)),
  });
