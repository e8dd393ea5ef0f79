import type { AdminDevice, AdminUser } from '@vitalwatch/shared';
import { vi } from 'vitest';
import { jsonResponse } from './render.tsx';

export function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    _id: 'u1',
    fullName: 'Ada Lovelace',
    username: 'ada',
    email: 'ada@example.com',
    role: 'user',
    fcmTokens: [],
    alertEmails: false,
    quietHours: null,
    temperatureUnit: 'F',
    twoFactorEnabled: false,
    recoveryCodesLeft: 0,
    devicesCount: 0,
    createdAt: '2026-01-05T09:07:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
    ...overrides,
  };
}

export function adminDevice(overrides: Partial<AdminDevice> = {}): AdminDevice {
  return {
    _id: 'd1',
    deviceName: 'Wrist band',
    isValid: true,
    users: [],
    backupUsers: [],
    lastUpdate: null,
    activationCode: 'ACT-1234',
    apiAuthCode: 'secret-api-key-0001',
    createdAt: '2026-01-05T09:07:00.000Z',
    updatedAt: '2026-01-05T09:07:00.000Z',
    ...overrides,
  };
}

type Handler = (body: unknown) => Response | Promise<Response>;

/**
 * Stubs fetch with one handler per API path (after /api/v1); an unrouted call fails the test.
 * Returns the mock so tests can assert which calls were (not) made.
 */
export function routeFetch(routes: Record<string, Handler>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).replace(/^\/api\/v1/, '');
    const handler = routes[path];
    if (!handler) throw new Error(`unexpected call ${path}`);
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    return handler(body);
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

export const ok = (data?: unknown, message = 'OK') =>
  jsonResponse(200, data === undefined ? { success: true, message } : { success: true, message, data });

/** Calls the stub received for `path`, with their JSON bodies. */
export function callsTo(mock: ReturnType<typeof routeFetch>, path: string): unknown[] {
  return mock.mock.calls
    .filter(([input]) => String(input) === `/api/v1${path}`)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}
