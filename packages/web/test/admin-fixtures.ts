import type { AdminDevice, AdminUser, FleetDevice } from '@vitalwatch/shared';
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
    channelChecks: true,
    quietHours: null,
    temperatureUnit: 'F',
    twoFactorEnabled: false,
    recoveryCodesLeft: 0,
    emailVerified: true,
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
    make: null,
    model: null,
    activationCode: 'ACT-1234',
    apiAuthCode: 'secret-api-key-0001',
    createdAt: '2026-01-05T09:07:00.000Z',
    updatedAt: '2026-01-05T09:07:00.000Z',
    ...overrides,
  };
}

/** A device as Device Management's paged list gives it: the admin view plus the fleet fields. */
export function fleetDevice(overrides: Partial<FleetDevice> = {}): FleetDevice {
  const device = adminDevice(overrides);
  return { userNames: device.users, battery: null, openAlerts: 0, ...device, ...overrides };
}

/** One page holding all of `items` under `key` ('devices', 'users'), as GET /admin/devices or /users answers. */
export const onePage = (key: 'devices' | 'users', items: readonly unknown[]) =>
  ok({ [key]: items, total: items.length, nextCursor: null });

type Handler = (body: unknown, query: URLSearchParams) => Response | Promise<Response>;

/**
 * Stubs fetch with one handler per API path (after /api/v1); an unrouted call fails the test.
 * Returns the mock so tests can assert which calls were (not) made.
 */
export function routeFetch(routes: Record<string, Handler>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    // A route may name its query (a POST's `?codeType=`) or take any (a GET's filters).
    const handler = routes[`${path}${url.search}`] ?? routes[path];
    if (!handler) throw new Error(`unexpected call ${path}`);
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    return handler(body, url.searchParams);
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

/** The query strings of the GET calls the stub received for `path`, as objects. */
export function queriesTo(mock: ReturnType<typeof routeFetch>, path: string): Record<string, string>[] {
  return mock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === `/api/v1${path}`)
    .map((url) => Object.fromEntries(url.searchParams));
}

/** GET /admin/users as the server answers it: `q` matched in name, username, e-mail or role, one page. */
export const usersPage =
  (users: readonly AdminUser[]) =>
  (_: unknown, query: URLSearchParams): Response => {
    const q = (query.get('q') ?? '').toLowerCase();
    const match = users.filter((u) =>
      [u.fullName, u.username, u.email, u.role].some((f) => f.toLowerCase().includes(q)),
    );
    return onePage('users', match);
  };

/** GET /admin/devices as the server answers it: `q` in the name or starting the activation code. */
export const devicesPage =
  (devices: readonly FleetDevice[]) =>
  (_: unknown, query: URLSearchParams): Response => {
    const q = (query.get('q') ?? '').toLowerCase();
    const match = devices.filter(
      (d) => d.deviceName.toLowerCase().includes(q) || d.activationCode.toLowerCase().startsWith(q),
    );
    return onePage('devices', match);
  };
