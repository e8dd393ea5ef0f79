import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { makeStore } from '@/app/store.ts';

/** Shows where the router is, so tests can assert navigation. */
function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Renders `ui` at `path` inside the real store, a memory router and a toast area. */
export function renderWithApp(ui: ReactElement, path = '/') {
  const store = makeStore();
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
    { initialEntries: [path] },
  );
  const result = render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastContainer />
    </Provider>,
  );
  return { ...result, store, router };
}

/** A JSON response as the API sends it. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const sampleUser = {
  _id: 'u1',
  fullName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.com',
  role: 'user' as const,
  fcmTokens: [],
  alertEmails: false,
  channelChecks: true,
  quietHours: null,
  temperatureUnit: 'F' as const,
  twoFactorEnabled: false,
  recoveryCodesLeft: 0,
  emailVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
