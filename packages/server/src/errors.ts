import type { FieldIssue } from '@vitalwatch/shared';
import { DEVICE_MESSAGES, SERVER_MESSAGES } from '@vitalwatch/shared';

/**
 * What went wrong, in the domain's words. Services and repositories throw these and never choose
 * a transport's answer: the HTTP edge maps each code to a status (http/error-status.ts), the MQTT
 * edge to a CONNACK return code or to acknowledging, refusing or retrying a publish (mqtt/).
 */
export type ErrorCode =
  /** The input breaks a rule (`issues` name the fields). */
  | 'invalidInput'
  /** No valid session or credentials. */
  | 'unauthenticated'
  /** A device call without its API code. */
  | 'missingApiKey'
  /** An API code (or device id and code) that matches no device. */
  | 'unknownApiKey'
  /** Signed in, but the role or the record does not allow it. */
  | 'forbidden'
  /** The device exists and was disabled by an admin: it may not ingest or be added. */
  | 'deviceInactive'
  /** No such record, or one the caller may not see. */
  | 'notFound'
  /** The path exists, not with this method (`allow` names those it has). */
  | 'methodNotAllowed'
  /** The device named (by id) does not exist. */
  | 'deviceNotFound'
  /** The change clashes with what is stored (a name taken, …). */
  | 'conflict'
  /** The last admin would be deleted or demoted. */
  | 'lastAdmin'
  /** An admin cannot hold devices. */
  | 'adminHasDevices'
  /** An admin deleting themselves. */
  | 'selfDelete'
  /** Too many attempts for now; `retryAfterSeconds` says when to try again. */
  | 'rateLimited'
  /** The ingest queue is full and the caller chose not to wait. */
  | 'ingestQueueFull'
  /** The ingest queue stayed full for as long as the caller could wait. */
  | 'ingestQueueTimedOut'
  /** A dependency cannot answer right now (DNS, …); the same call may succeed shortly. */
  | 'temporarilyUnavailable'
  /** Push is not set up on this server (no VAPID keys). */
  | 'pushNotConfigured'
  /** The metrics scraper sent no token or the wrong one. */
  | 'metricsTokenRequired'
  /** A mailed link past its time. */
  | 'linkExpired'
  /** A mailed link that already did its one thing. */
  | 'linkUsed';

export interface ErrorDetails {
  issues?: FieldIssue[];
  /** For codes that say "later": when the same call may succeed. */
  retryAfterSeconds?: number;
  /** Credentials were given and are not valid (as opposed to none given). */
  credentialsRejected?: boolean;
  /** For `methodNotAllowed`: the methods the path has. */
  allow?: string[];
}

/** The one error family: a stable code, a message safe to show, and optional details. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.code = code;
    this.details = details;
    this.name = 'DomainError';
  }

  get issues(): FieldIssue[] | undefined {
    return this.details.issues;
  }
}

export const isDomainError = (err: unknown, ...codes: ErrorCode[]): err is DomainError =>
  err instanceof DomainError && (codes.length === 0 || codes.includes(err.code));

export const badRequest = (message: string, issues?: FieldIssue[]) =>
  new DomainError('invalidInput', message, { issues });
export const unauthorized = (message: string = SERVER_MESSAGES.unauthenticated) =>
  new DomainError('unauthenticated', message);
/** A bearer token was given and is not (or no longer) valid. */
export const invalidToken = () =>
  new DomainError('unauthenticated', SERVER_MESSAGES.invalidToken, { credentialsRejected: true });
export const methodNotAllowed = (allow: string[]) =>
  new DomainError('methodNotAllowed', SERVER_MESSAGES.methodNotAllowed, { allow });
export const forbidden = (message: string = SERVER_MESSAGES.forbidden) =>
  new DomainError('forbidden', message);
export const notFound = (message: string = SERVER_MESSAGES.notFound) => new DomainError('notFound', message);
export const conflict = (message: string, issues?: FieldIssue[]) =>
  new DomainError('conflict', message, { issues });
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new DomainError('rateLimited', message, { retryAfterSeconds });

export const temporarilyUnavailable = (message: string, retryAfterSeconds: number) =>
  new DomainError('temporarilyUnavailable', message, { retryAfterSeconds });

/**
 * The caller's own request was refused (bad input, wrong credentials, not allowed, too many
 * tries), as opposed to a record that does not exist or a server that cannot serve now.
 */
export const isRefusal = (err: unknown): err is DomainError =>
  err instanceof DomainError && !NOT_REFUSALS.has(err.code);
const NOT_REFUSALS = new Set<ErrorCode>([
  'notFound',
  'deviceNotFound',
  'ingestQueueTimedOut',
  'temporarilyUnavailable',
  'pushNotConfigured',
]);

export const missingApiKey = () => new DomainError('missingApiKey', DEVICE_MESSAGES.missingApiKey);
export const unknownApiKey = () => new DomainError('unknownApiKey', DEVICE_MESSAGES.unknownApiKey);
export const deviceInactive = () => new DomainError('deviceInactive', DEVICE_MESSAGES.inactive);
export const deviceNotFound = () => new DomainError('deviceNotFound', DEVICE_MESSAGES.notFound);
