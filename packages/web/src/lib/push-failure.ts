import { ERRORS, PUSH_FAILURE_MESSAGES } from '@vitalwatch/shared';
import { useSyncExternalStore } from 'react';
import { ApiError, failureKind } from './api-error.ts';
import { PushSetupError, PushStepError, type SetupPushResult, setupPush } from './push-subscription.ts';

/** An Error's or a DOMException's message (the browser's push errors are DOMExceptions). */
const messageOf = (value: unknown): string | null =>
  typeof value === 'object' &&
  value !== null &&
  'message' in value &&
  typeof value.message === 'string' &&
  value.message
    ? value.message
    : null;

/** What the thing that failed said: the server's issue or message, the browser's message. */
function detailOf(cause: unknown, fallback: string): string {
  if (cause instanceof ApiError) {
    if (failureKind(cause) === 'unreachable') return PUSH_FAILURE_MESSAGES.unreachable;
    return cause.issues[0]?.message ?? cause.serverMessage ?? fallback;
  }
  return messageOf(cause) ?? fallback;
}

/**
 * Why push is off on this browser, in words: which step failed and what it was told, e.g. "The
 * browser's push service did not accept the subscription: Registration failed - push service error".
 */
export function pushFailureReason(error: unknown): string {
  if (error instanceof PushStepError) {
    const fallback = error.step === 'save' ? ERRORS.saveFcmTokenFailed : ERRORS.unexpected;
    return `${PUSH_FAILURE_MESSAGES[error.step]}: ${detailOf(error.cause, fallback)}`;
  }
  // The spec's codes (unsupported-browser, indexed-db-unsupported…).
  if (error instanceof PushSetupError) return error.code;
  return detailOf(error, ERRORS.unexpected);
}

let failure: string | null = null;
const listeners = new Set<() => void>();

function setFailure(next: string | null): void {
  if (failure === next) return;
  failure = next;
  for (const listener of listeners) listener();
}

/** Forget the last failure (the user closed its notice, or signed out). */
export const clearPushFailure = (): void => setFailure(null);

/**
 * `setupPush`, remembering why it failed for the notice that says push is off on this browser
 * (with permission granted a failure is otherwise invisible); a success clears it. Resolves null
 * after a failure.
 */
export async function setupPushReporting(
  userId: string,
  warn: (message: string) => void,
): Promise<SetupPushResult | null> {
  try {
    const result = await setupPush({ userId, warn });
    setFailure(null);
    return result;
  } catch (error) {
    console.warn('Push notifications are not set up', error);
    setFailure(pushFailureReason(error));
    return null;
  }
}

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
  };
};
const read = () => failure;

/** Why the last push setup failed, or null. */
export const usePushFailure = (): string | null => useSyncExternalStore(subscribe, read, read);
