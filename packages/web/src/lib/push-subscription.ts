import {
  type AlertRecord,
  alertNotification,
  contracts,
  ERRORS,
  messageOnly,
  NOTIFICATION_BADGE,
  NOTIFICATION_ICON,
  type PushMessage,
  type PushSubscriptionJson,
  pushMessageSchema,
  pushSubscriptionSchema,
  STORAGE_KEYS,
} from '@vitalwatch/shared';
import { z } from 'zod';
import { apiRequest } from './api-client.ts';
import { callContract } from './call-contract.ts';

/**
 * This browser's push subscription (Web Push), framework-free: permission, the service worker,
 * subscribing and saving it on the server (the spec's "FCM token"), forgetting it on sign-out, and
 * notifications while the app is open. The spec's flow of section 4 and its error codes.
 */

export const SERVICE_WORKER_URL = '/sw.js';
/** What /sw.js posts to open windows for every push (see PUSH_MESSAGE_TYPE there). */
const forwardedPush = z.object({ type: z.literal('vitalwatch:push'), message: pushMessageSchema });

export type PushSetupErrorCode =
  | 'unsupported-browser'
  | 'indexed-db-unsupported'
  | 'only-available-in-window';

/** Why push cannot work here; the message is the spec's code. */
export class PushSetupError extends Error {
  constructor(readonly code: PushSetupErrorCode) {
    super(code);
    this.name = 'PushSetupError';
  }
}

/** Throws `unsupported-browser` without service worker, push, notification or fetch support, `indexed-db-unsupported` without IndexedDB. */
export function assertPushSupported(): void {
  const supported =
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof PushManager !== 'undefined' &&
    typeof Notification !== 'undefined' &&
    typeof fetch === 'function';
  if (!supported) throw new PushSetupError('unsupported-browser');
  if (typeof indexedDB === 'undefined' || indexedDB === null)
    throw new PushSetupError('indexed-db-unsupported');
}

/** The steps of setting up push once permission is granted, each of which can fail on its own. */
export type PushStep = 'worker' | 'publicKey' | 'subscribe' | 'save';

/** A step of `setupPush` failed; `cause` is what it threw (a DOMException, an ApiError…). */
export class PushStepError extends Error {
  constructor(
    readonly step: PushStep,
    override readonly cause: unknown,
  ) {
    super(
      typeof cause === 'object' && cause !== null && 'message' in cause
        ? String(cause.message)
        : String(cause),
    );
    this.name = 'PushStepError';
  }
}

async function during<T>(step: PushStep, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    throw new PushStepError(step, cause);
  }
}

export interface SetupPushOptions {
  /** The signed-in user: a browser last saved for someone else is saved again. */
  userId: string;
  /** Save the subscription for the signed-in user; by default `POST /api/v1/user/save-fcm-token {fcmToken}`. */
  saveToken?(fcmToken: PushSubscriptionJson): Promise<void>;
  /** Show the spec's warning toast. */
  warn(message: string): void;
  /** The VAPID public key; by default `GET /api/v1/push/public-key`. */
  fetchPublicKey?(): Promise<string>;
}

/** `saved`: sent to the server; `unchanged`: the server already has it; `denied`: no permission. */
export type SetupPushResult = 'saved' | 'unchanged' | 'denied';

/**
 * After sign-in: ask for permission; without it warn and forget the stored token; with it register
 * /sw.js, subscribe with the server's key and save the subscription when it differs from the one
 * last sent. Rejects with a PushSetupError, or a PushStepError naming the step that failed.
 */
export async function setupPush(options: SetupPushOptions): Promise<SetupPushResult> {
  assertPushSupported();
  const permission =
    Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') {
    options.warn(ERRORS.notificationDenied);
    forgetSentToken();
    return 'denied';
  }
  const registration = await during('worker', async () => {
    await registerServiceWorker();
    // Subscribing needs an active worker; `ready` waits for it.
    return navigator.serviceWorker.ready;
  });
  const publicKey = await during('publicKey', options.fetchPublicKey ?? fetchPublicKey);
  const subscription = await during('subscribe', () => subscribe(registration, base64UrlToBytes(publicKey)));
  const fcmToken = pushSubscriptionSchema.parse(subscription.toJSON());
  const serialized = JSON.stringify(subscription);
  const sent = storage.read(STORAGE_KEYS.sentFcmToken) === serialized;
  if (sent && storage.read(STORAGE_KEYS.sentFcmTokenUser) === options.userId) return 'unchanged';
  await during('save', () => (options.saveToken ?? saveFcmToken)(fcmToken));
  storage.write(STORAGE_KEYS.sentFcmToken, serialized);
  storage.write(STORAGE_KEYS.sentFcmTokenUser, options.userId);
  return 'saved';
}

/** Registers /sw.js for the whole app (push, and the offline page a reload gets while the server is down). */
export const registerServiceWorker = (): Promise<ServiceWorkerRegistration> =>
  navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });

/**
 * On sign-out, before the tokens are cleared: this browser stops receiving the user's alerts
 * (by default `POST /api/v1/push/unsubscribe {endpoint}`) and the stored token is forgotten.
 */
export async function teardownPush(
  removeToken: (endpoint: string) => Promise<void> = unsubscribeBrowser,
): Promise<void> {
  forgetSentToken();
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) await removeToken(subscription.endpoint);
}

/**
 * A system notification for an alert that arrived while the app is open (over the socket), when
 * permission is granted. Same tag as the Web Push of that alert, so the two never stack up.
 * Resolves whether one was shown.
 */
export async function showForegroundNotification(alert: AlertRecord): Promise<boolean> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  const registration = await navigator.serviceWorker.getRegistration('/');
  if (!registration) return false;
  const message = alertNotification(alert);
  await registration.showNotification(message.title, {
    body: message.body,
    tag: message.tag,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE,
    data: { url: message.url },
    requireInteraction: alert.priority === 'high',
  });
  return true;
}

/** Every push message while this window is open; throws `only-available-in-window` elsewhere. Returns the unsubscribe. */
export function onForegroundMessage(handler: (message: PushMessage) => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new PushSetupError('only-available-in-window');
  }
  assertPushSupported();
  const listener = (event: MessageEvent) => {
    const parsed = forwardedPush.safeParse(event.data);
    if (parsed.success) handler(parsed.data.message);
  };
  navigator.serviceWorker.addEventListener('message', listener);
  return () => navigator.serviceWorker.removeEventListener('message', listener);
}

const saveFcmToken = async (fcmToken: PushSubscriptionJson): Promise<void> => {
  await apiRequest('/user/save-fcm-token', { body: { fcmToken }, schema: messageOnly });
};

const unsubscribeBrowser = async (endpoint: string): Promise<void> => {
  await callContract(contracts.push.unsubscribe, { body: { endpoint } });
};

const fetchPublicKey = async (): Promise<string> =>
  (await callContract(contracts.push.publicKey, {})).data.publicKey;

/** Subscribe with this key; a subscription made with another key (the server's key changed) is replaced. */
async function subscribe(
  registration: ServiceWorkerRegistration,
  applicationServerKey: Uint8Array<ArrayBuffer>,
): Promise<PushSubscription> {
  const existing = await registration.pushManager.getSubscription();
  const existingKey = existing?.options.applicationServerKey;
  if (existing && existingKey && !sameBytes(new Uint8Array(existingKey), applicationServerKey)) {
    await existing.unsubscribe();
  }
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
}

/** The bytes of a base64url string (VAPID keys travel as base64url). */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** This browser's notification permission, or 'unsupported' where push cannot work. */
export function pushPermission(): NotificationPermission | 'unsupported' {
  try {
    assertPushSupported();
  } catch {
    return 'unsupported';
  }
  return Notification.permission;
}

/** Forget the subscription last sent (spec: without permission the stored token is removed). */
export const forgetSentToken = () => {
  storage.remove(STORAGE_KEYS.sentFcmToken);
  storage.remove(STORAGE_KEYS.sentFcmTokenUser);
};

/** `sentFCMToken` (the subscription last sent to the server, as its JSON text) and whom for. Storage may be unavailable. */
const storage = {
  read(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  write(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Without storage the subscription is simply sent again next time.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to forget.
    }
  },
};
