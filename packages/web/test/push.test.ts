import type { AlertRecord } from '@vitalwatch/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error.ts';
import { pushFailureReason } from '@/lib/push-failure.ts';
import {
  base64UrlToBytes,
  onForegroundMessage,
  PushSetupError,
  PushStepError,
  setupPush,
  showForegroundNotification,
  teardownPush,
} from '@/lib/push-subscription.ts';

const PUBLIC_KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const subscriptionJson = {
  endpoint: 'https://push.example.com/send/abc',
  expirationTime: null,
  keys: { p256dh: 'BPublicKeyOfTheBrowser', auth: 'authsecret' },
};

/** A browser with push support whose parts are spies: permission as given, a worker that registers. */
function fakeBrowser(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const subscription = { endpoint: subscriptionJson.endpoint, toJSON: () => subscriptionJson };
  const pushManager = {
    getSubscription: vi.fn<() => Promise<{ endpoint: string } | null>>(async () => null),
    subscribe: vi.fn(async () => subscription),
  };
  const registration = { pushManager, showNotification: vi.fn(async () => {}) };
  const listeners: Array<(event: { data: unknown }) => void> = [];
  const serviceWorker = {
    register: vi.fn(async () => registration),
    ready: Promise.resolve(registration),
    getRegistration: vi.fn(async () => registration),
    addEventListener: vi.fn((_type: string, l: (event: { data: unknown }) => void) => listeners.push(l)),
    removeEventListener: vi.fn(),
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  vi.stubGlobal('PushManager', class PushManager {});
  vi.stubGlobal('indexedDB', {});
  vi.stubGlobal('Notification', { permission, requestPermission: vi.fn(async () => answer) });
  const saveToken = vi.fn(async () => {});
  const warn = vi.fn();
  const options = { userId: 'user-1', saveToken, warn, fetchPublicKey: async () => PUBLIC_KEY };
  return { serviceWorker, registration, pushManager, listeners, saveToken, warn, options };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  localStorage.clear();
});

const codeOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof PushSetupError ? error.code : error;
};

describe('setupPush', () => {
  it("is 'unsupported-browser' without service workers, push or notifications", async () => {
    expect(await codeOf(setupPush({ userId: 'u', warn: vi.fn() }))).toBe('unsupported-browser');
    fakeBrowser('granted');
    vi.stubGlobal('Notification', undefined);
    expect(await codeOf(setupPush({ userId: 'u', warn: vi.fn() }))).toBe('unsupported-browser');
  });

  it("is 'indexed-db-unsupported' when IndexedDB is unavailable", async () => {
    const browser = fakeBrowser('granted');
    vi.stubGlobal('indexedDB', undefined);
    expect(await codeOf(setupPush(browser.options))).toBe('indexed-db-unsupported');
  });

  it('without permission warns with the spec text, forgets the stored token and registers nothing', async () => {
    const browser = fakeBrowser('default', 'denied');
    localStorage.setItem('sentFCMToken', JSON.stringify(subscriptionJson));
    localStorage.setItem('sentFCMTokenUser', 'user-1');
    expect(await setupPush(browser.options)).toBe('denied');
    expect(browser.warn).toHaveBeenCalledWith(
      'Notification permission denied! Please enable it in your browser settings.',
    );
    expect(localStorage.getItem('sentFCMToken')).toBeNull();
    expect(localStorage.getItem('sentFCMTokenUser')).toBeNull();
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
  });

  it('with permission registers /sw.js, subscribes with the server key and saves a new subscription once', async () => {
    const browser = fakeBrowser('default', 'granted');
    expect(await setupPush(browser.options)).toBe('saved');
    expect(browser.serviceWorker.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(browser.pushManager.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(PUBLIC_KEY),
    });
    expect(browser.saveToken).toHaveBeenCalledWith(subscriptionJson);
    expect(localStorage.getItem('sentFCMToken')).toBe(JSON.stringify(subscriptionJson));

    expect(await setupPush(browser.options)).toBe('unchanged');
    expect(browser.saveToken).toHaveBeenCalledTimes(1);
    expect(browser.warn).not.toHaveBeenCalled();
  });

  it('saves the same browser again when another user signs in on it', async () => {
    const browser = fakeBrowser('granted');
    expect(await setupPush(browser.options)).toBe('saved');
    expect(await setupPush({ ...browser.options, userId: 'user-2' })).toBe('saved');
    expect(browser.saveToken).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem('sentFCMTokenUser')).toBe('user-2');
  });

  it('does not store the token when saving it fails, so the next sign-in tries again', async () => {
    const browser = fakeBrowser('granted');
    browser.saveToken.mockRejectedValueOnce(new Error('Failed to save FCM token'));
    await expect(setupPush(browser.options)).rejects.toThrow('Failed to save FCM token');
    expect(localStorage.getItem('sentFCMToken')).toBeNull();
  });
});

describe('base64UrlToBytes', () => {
  it('decodes a VAPID public key to its 65-byte uncompressed point', () => {
    const bytes = base64UrlToBytes(PUBLIC_KEY);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });
});

describe('foreground alerts', () => {
  const alert: AlertRecord = {
    _id: 'a1',
    device: 'd1',
    deviceName: 'Wrist band',
    alertType: 'SOS',
    alertTitle: 'SOS Alert',
    alertMessage: 'SOS button pressed',
    createdAt: '2026-01-01T00:00:00.000Z',
    receivedAt: '2026-01-01T00:00:00.000Z',
    isRead: false,
    priority: 'high',
    status: 'active',
    acknowledged: null,
    resolved: null,
  };

  it('shows a system notification through the worker when permission is granted', async () => {
    const browser = fakeBrowser('granted');
    expect(await showForegroundNotification(alert)).toBe(true);
    expect(browser.registration.showNotification).toHaveBeenCalledWith('SOS Alert', {
      body: 'SOS button pressed',
      tag: 'd1:SOS',
      icon: '/pwa-192x192.png',
      badge: '/pwa-64x64.png',
      data: { url: '/dashboard/alerts' },
      requireInteraction: true,
    });
  });

  it('shows nothing without permission', async () => {
    const browser = fakeBrowser('denied');
    expect(await showForegroundNotification(alert)).toBe(false);
    expect(browser.registration.showNotification).not.toHaveBeenCalled();
  });

  it('hands push messages forwarded by the worker to the handler, parsed with defaults', () => {
    const browser = fakeBrowser('granted');
    const handler = vi.fn();
    onForegroundMessage(handler);
    for (const listener of browser.listeners) {
      listener({ data: { type: 'vitalwatch:push', message: { body: 'Fall detected', tag: 'd1:FALL' } } });
      listener({ data: { type: 'something-else' } });
    }
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledWith({
      title: 'Notification',
      body: 'Fall detected',
      tag: 'd1:FALL',
      url: '/',
    });
  });

  it("is 'only-available-in-window' outside a window", () => {
    fakeBrowser('granted');
    vi.stubGlobal('window', undefined);
    expect(() => onForegroundMessage(vi.fn())).toThrow('only-available-in-window');
  });
});

describe('teardownPush', () => {
  it("tells the server to forget this browser's endpoint and forgets the stored token", async () => {
    const browser = fakeBrowser('granted');
    await setupPush(browser.options);
    browser.pushManager.getSubscription.mockResolvedValue({ endpoint: subscriptionJson.endpoint });
    const removeToken = vi.fn(async () => {});
    await teardownPush(removeToken);
    expect(removeToken).toHaveBeenCalledWith(subscriptionJson.endpoint);
    expect(localStorage.getItem('sentFCMToken')).toBeNull();
    expect(localStorage.getItem('sentFCMTokenUser')).toBeNull();
  });
});

describe('why push is off', () => {
  it('names the step that failed and what it was told', async () => {
    const browser = fakeBrowser('granted');
    browser.pushManager.subscribe.mockRejectedValueOnce(
      new DOMException('Registration failed - push service error', 'AbortError'),
    );
    const failed = await setupPush(browser.options).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PushStepError);
    expect(pushFailureReason(failed)).toBe(
      "The browser's push service did not accept the subscription: Registration failed - push service error",
    );
  });

  it('says the server could not be reached, or what it refused, when saving fails', async () => {
    const browser = fakeBrowser('granted');
    browser.saveToken.mockRejectedValueOnce(
      new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection.'),
    );
    expect(pushFailureReason(await setupPush(browser.options).catch((e: unknown) => e))).toBe(
      "The VitalWatch server did not save this browser's subscription: the server could not be reached",
    );
    const issue = {
      path: 'fcmToken.endpoint',
      message: 'Push endpoint is not on a push service this server accepts',
    };
    browser.saveToken.mockRejectedValueOnce(
      new ApiError(400, 'VALIDATION_ERROR', 'Validation failed', 'Validation failed', [issue]),
    );
    expect(pushFailureReason(await setupPush(browser.options).catch((e: unknown) => e))).toBe(
      "The VitalWatch server did not save this browser's subscription: Push endpoint is not on a push service this server accepts",
    );
  });

  it("gives the server's message when it has no push key, and the spec's code for an unsupported browser", async () => {
    const browser = fakeBrowser('granted');
    const notConfigured = new ApiError(
      503,
      'PUSH_NOT_CONFIGURED',
      'x',
      'Push notifications are not configured on this server',
    );
    const failed = await setupPush({
      ...browser.options,
      fetchPublicKey: () => Promise.reject(notConfigured),
    }).catch((e: unknown) => e);
    expect(pushFailureReason(failed)).toBe(
      'The VitalWatch server did not give this browser its push key: Push notifications are not configured on this server',
    );
    expect(pushFailureReason(new PushSetupError('unsupported-browser'))).toBe('unsupported-browser');
  });
});
