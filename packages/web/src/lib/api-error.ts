import type { FieldIssue } from '@vitalwatch/shared';

/** Machine codes the client adds to the server's own (`VALIDATION_ERROR`, `CONFLICT`, …). */
export type ClientErrorCode =
  | 'NO_TOKEN'
  | 'NETWORK_ERROR'
  | 'INVALID_RESPONSE'
  | 'SESSION_EXPIRED'
  | 'HTTP_ERROR';

/** Every failed API call rejects with this: callers pick the text to show from the spec's catalogue. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no response arrived or the call never left the browser. */
    readonly status: number,
    readonly code: ClientErrorCode | (string & {}),
    message: string,
    /** The server's own message, when it sent one: the spec shows it in preference to a fallback. */
    readonly serverMessage: string | null = null,
    readonly issues: readonly FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Failures with no usable answer from the server: the network, a malformed response, a bug. */
const NO_ANSWER: ReadonlySet<string> = new Set(['NETWORK_ERROR', 'INVALID_RESPONSE']);

/**
 * The spec's rule "on a non-success response the server's message is used; otherwise a fallback".
 * `unexpected` is the text for a failure that got no usable answer at all (spec 8 gives the health,
 * alert and device calls 'An unexpected error occurred! Please try again.' for those).
 */
export function errorMessage(error: unknown, fallback: string, unexpected: string = fallback): string {
  if (!(error instanceof ApiError) || NO_ANSWER.has(error.code)) return unexpected;
  if (error.serverMessage) return error.serverMessage;
  // The spec's own texts for a missing token are shown as they are.
  return error.code === 'NO_TOKEN' ? error.message : fallback;
}

/**
 * What failed, for texts that must not blame the wrong party: `unreachable` when no answer came
 * (the server is down, or this browser's connection is), `server` when the server answered with
 * an error (its message says which), `refused` when it turned the request down (4xx).
 */
export type FailureKind = 'unreachable' | 'server' | 'refused';

export function failureKind(error: ApiError): FailureKind {
  if (error.code === 'NETWORK_ERROR') return 'unreachable';
  if (error.code === 'NO_TOKEN') return 'refused';
  return error.status >= 400 && error.status < 500 ? 'refused' : 'server';
}

/** A failed write that is worth sending again as it is: it never arrived, or the server failed (or was busy). */
export const notRecorded = (error: ApiError): boolean =>
  error.code === 'NETWORK_ERROR' || error.status >= 500 || error.status === 429;
