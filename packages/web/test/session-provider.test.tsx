import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONNECTION_MESSAGES } from '@vitalwatch/shared';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '@/app/session-provider.tsx';
import { makeStore } from '@/app/store.ts';
import { getAccessToken, storeTokens } from '@/lib/token-storage.ts';
import { jsonResponse, sampleUser } from './render.tsx';

function renderApp() {
  const store = makeStore();
  const router = createMemoryRouter(
    [{ path: '*', element: <SessionProvider>{<h1>Signed-in page</h1>}</SessionProvider> }],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router };
}

beforeEach(() => {
  localStorage.clear();
  storeTokens({ accessToken: 'access-1', refreshToken: 'refresh-1' });
});
afterEach(() => vi.unstubAllGlobals());

describe('SessionProvider when the server cannot be reached', () => {
  it('keeps the session and says so, instead of sending the user to sign in; Try again restores it', async () => {
    const fetchMock = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { store, router } = renderApp();

    expect(await screen.findByText(CONNECTION_MESSAGES.unreachableTitle)).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(getAccessToken()).toBe('access-1');
    expect(store.getState().auth.status).toBeFalsy();

    fetchMock.mockResolvedValue(
      jsonResponse(200, { success: true, message: 'Profile fetched', data: { user: sampleUser } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Signed-in page' })).toBeVisible();
    expect(store.getState().auth.loggedInUser?.username).toBe('ada');
  });

  it('a server error (503) is not a sign-out either', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(503, { success: false, message: 'down' })));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp();
    expect(await screen.findByText(CONNECTION_MESSAGES.unreachableTitle)).toBeVisible();
  });
});
