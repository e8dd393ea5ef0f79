import { render } from '@testing-library/react';
import type { AlertRecord, HealthRecord, PublicUser, UserDevice } from '@vitalwatch/shared';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { vi } from 'vitest';
import { makeStore } from '@/app/store.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';

/** Test data of the user area: a signed-in user, devices, readings, alerts. */

export const user: PublicUser = {
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
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
};

export const makeDevice = (over: Partial<UserDevice> = {}): UserDevice => ({
  _id: 'd1',
  deviceName: 'Wristband',
  sharedName: 'Wristband',
  nickname: null,
  circleRole: 'owner',
  isValid: true,
  users: 1,
  lastUpdate: null,
  make: null,
  model: null,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  ...over,
});

export const makeRecord = (over: Partial<HealthRecord> = {}): HealthRecord => ({
  _id: 'h1',
  device: 'd1',
  spo2: 97,
  heartRate: 72,
  temperature: 97.6,
  battery: 80,
  createdAt: new Date().toISOString(),
  ...over,
});

export const makeAlert = (over: Partial<AlertRecord> = {}): AlertRecord => ({
  _id: 'a1',
  device: 'd1',
  deviceName: 'Wristband',
  alertType: 'HIGH_HEART_RATE',
  alertTitle: 'High heart rate',
  alertMessage: 'Heart rate 130 BPM is above 100 BPM',
  createdAt: new Date().toISOString(),
  receivedAt: new Date().toISOString(),
  isRead: false,
  priority: 'medium',
  status: 'active',
  acknowledged: null,
  resolved: null,
  ...over,
});

export const ok = <T,>(data: T) => ({ success: true, message: 'OK', data });

type Handler = (body: unknown, path: string) => unknown;

/**
 * Replaces `fetch` with the given API routes (path after /api/v1, matched by prefix, longest
 * first). A handler returns the JSON body (200) or a Response. Returns the recorded calls.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: { path: string; body: unknown }[] = [];
  const paths = Object.keys(routes).sort((a, b) => b.length - a.length);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).replace('/api/v1', '');
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ path, body });
    const match = paths.find((p) => path.startsWith(p));
    if (!match) return json(404, { success: false, message: `No mock for ${path}`, code: 'NOT_FOUND' });
    // A handler may answer later (a promise): a test can hold a fetch in flight.
    const result = await routes[match]!(body, path);
    return result instanceof Response ? result : json(200, result);
  });
  vi.stubGlobal('fetch', fetchMock);
  window.localStorage.setItem('access-token', 'test-token');
  return calls;
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Renders `ui` signed in as `user`, inside the real store, a memory router and a toast area. */
export function renderSignedIn(ui: ReactElement, path = '/dashboard') {
  const store = makeStore();
  store.dispatch(loggedIn(user));
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {ui}
            <LocationProbe />
          </>
        ),
      },
    ],
    {
      initialEntries: [path],
    },
  );
  const result = render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastContainer />
    </Provider>,
  );
  return { ...result, store, router };
}
