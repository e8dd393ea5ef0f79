import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '@/features/auth/components/login-form.tsx';
import { getAccessToken, getRefreshToken } from '@/lib/token-storage.ts';
import { jsonResponse, renderWithApp, sampleUser } from './render.tsx';

async function submit(username: string, password: string) {
  const user = userEvent.setup();
  if (username) await user.type(screen.getByLabelText('Username or email'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('login form', () => {
  it('requires the username and the password', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<LoginForm />, '/signin');
    await submit('', '');
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('accepts any non-empty password (no strength rule at login)', async () => {
    let resolve: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((r) => (resolve = r))),
    );
    const { store } = renderWithApp(<LoginForm />, '/signin');
    await submit('ada@example.com', 'x');
    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeDisabled();
    resolve(
      jsonResponse(200, {
        success: true,
        message: 'Logged in successfully',
        data: { accessToken: 'A', refreshToken: 'R', user: sampleUser },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    expect([getAccessToken(), getRefreshToken()]).toEqual(['A', 'R']);
    expect(store.getState().auth).toEqual({ status: true, loggedInUser: sampleUser });
  });

  it('shows the server message on failure, or "Login failed"', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(
          jsonResponse(401, {
            success: false,
            message: 'Invalid username/email or password',
            code: 'UNAUTHENTICATED',
          }),
        )
        .mockRejectedValueOnce(new TypeError('Failed to fetch')),
    );
    renderWithApp(<LoginForm />, '/signin');
    await submit('ada', 'wrong');
    expect(await screen.findByText('Invalid username/email or password')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/signin');
  });
});
