import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteStaticLoadingScreen } from '@/app/boot-splash.tsx';
import { RouteGuard } from '@/app/guard/route-guard.tsx';
import { makeStore } from '@/app/store.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { storeTokens } from '@/lib/token-storage.ts';
import { jsonResponse, sampleUser } from './render.tsx';

function Page({ name }: { name: string }) {
  const { pathname, search } = useLocation();
  return <h1>{`${name} at ${pathname}${search}`}</h1>;
}

function renderAt(path: string, store = makeStore()) {
  const router = createMemoryRouter(
    [
      {
        element: <Outlet />,
        children: [
          {
            element: <RouteGuard authRequired={false} />,
            children: [
              { path: '/', element: <Page name="landing" /> },
              { path: '/signin', element: <Page name="signin" /> },
            ],
          },
          {
            path: '/dashboard',
            element: <RouteGuard />,
            children: [{ index: true, element: <Page name="user" /> }],
          },
          {
            path: '/admin-dashboard',
            element: <RouteGuard requiredRole="admin" />,
            children: [{ index: true, element: <Page name="admin" /> }],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return store;
}

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('RouteGuard', () => {
  // The session check loads the API client on first use (a dynamic import): loaded here, it
  // resolves at once under the fake timers these tests step through.
  beforeAll(() => import('@/features/auth/api/get-profile.ts'));

  it('shows a full-screen spinner for about 50 ms before deciding', async () => {
    renderAt('/dashboard');
    expect(screen.getByRole('status')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(49));
    expect(screen.queryByRole('heading')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    // A guest on a user screen ends on /signin (its own guard shows the spinner again first).
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByRole('heading')).toHaveTextContent('signin at /signin');
  });

  it("continues the page's own loading screen: the first guard decides at once once it has shown 50 ms", async () => {
    const root = document.createElement('div');
    root.innerHTML = '<div class="boot-splash" role="status">Loading VitalWatch…</div>';
    noteStaticLoadingScreen(root);
    const now = vi.spyOn(performance, 'now').mockReturnValue(400);
    const store = makeStore();
    store.dispatch(loggedIn(sampleUser));
    renderAt('/dashboard', store);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading')).toHaveTextContent('user at /dashboard');
    // A later guard (another group, an in-app move) shows its own spinner for the whole 50 ms.
    renderAt('/admin-dashboard', store);
    await act(() => vi.advanceTimersByTimeAsync(49));
    expect(screen.getAllByRole('heading')).toHaveLength(1);
    now.mockRestore();
  });

  it('shows the user area to a signed-in user', async () => {
    const store = makeStore();
    store.dispatch(loggedIn(sampleUser));
    renderAt('/dashboard', store);
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByRole('heading')).toHaveTextContent('user at /dashboard');
  });

  it('the admin guard checks the session when nobody is signed in yet', async () => {
    storeTokens({ accessToken: 'A', refreshToken: 'R' });
    let answer: (r: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/admin-dashboard');
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/user/profile',
      expect.objectContaining({ method: 'GET' }),
    );
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session…');
    await act(async () =>
      answer(
        jsonResponse(200, { success: true, message: 'ok', data: { user: { ...sampleUser, role: 'admin' } } }),
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading')).toHaveTextContent('admin at /admin-dashboard');
  });

  it('the admin guard sends a signed-in user to /dashboard', async () => {
    storeTokens({ accessToken: 'A', refreshToken: 'R' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { success: true, message: 'ok', data: { user: sampleUser } })),
    );
    renderAt('/admin-dashboard');
    await act(() => vi.advanceTimersByTimeAsync(50));
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByRole('heading')).toHaveTextContent('user at /dashboard');
  });

  it('the admin guard sends a guest without a session to /signin without calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/admin-dashboard');
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('heading')).toHaveTextContent('signin at /signin');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends a guest on a device label's claim link to sign in, and back to Add Device once signed in", async () => {
    renderAt('/dashboard?claim=AB12CD34');
    await act(() => vi.advanceTimersByTimeAsync(100));
    const heading = screen.getByRole('heading');
    expect(heading.textContent).toBe(
      `signin at /signin?${new URLSearchParams({ next: '/dashboard?claim=AB12CD34' })}`,
    );
    const store = makeStore();
    store.dispatch(loggedIn(sampleUser));
    renderAt(heading.textContent?.replace('signin at ', '') ?? '', store);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getAllByRole('heading').at(-1)).toHaveTextContent('user at /dashboard?claim=AB12CD34');
  });

  it('keeps no ?next= for a protected screen without a claim (after sign-in the user goes to /)', async () => {
    renderAt('/dashboard?device=d1');
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('heading').textContent).toBe('signin at /signin');
  });
});
