import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignupForm } from '@/features/auth/components/signup-form.tsx';
import { getAccessToken, getRefreshToken } from '@/lib/token-storage.ts';
import { jsonResponse, renderWithApp, sampleUser } from './render.tsx';

async function fill(
  values: Partial<Record<'Full Name' | 'Username' | 'Email' | 'Password' | 'Confirm Password', string>>,
) {
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) {
    await user.type(screen.getByLabelText(label, { exact: true }), value);
  }
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

const valid = {
  'Full Name': 'Ada Lovelace',
  Username: 'ada',
  Email: 'ada@example.com',
  Password: 'Passw0rdOK',
  'Confirm Password': 'Passw0rdOK',
};

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('sign-up form', () => {
  it('shows every "required" message on an empty submit, without calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<SignupForm />, '/signup');
    await fill({});
    for (const message of [
      'Full Name is required',
      'Username is required',
      'Email is required',
      'Password is required',
      'Confirm your password',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Full Name')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the email, password-strength and mismatch messages', async () => {
    renderWithApp(<SignupForm />, '/signup');
    await fill({ ...valid, Email: 'ada@nowhere', Password: 'password', 'Confirm Password': 'different' });
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(
      screen.getByText('Password must contain at least 8 characters, a number, uppercase & lowercase letter'),
    ).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
  });

  it('registers, stores the tokens and user, then goes to /signin with the server message', async () => {
    let resolve: (r: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((r) => (resolve = r)));
    vi.stubGlobal('fetch', fetchMock);
    const { store } = renderWithApp(<SignupForm />, '/signup');
    await fill(valid);
    const busy = await screen.findByRole('button', { name: 'Registering...' });
    expect(busy).toBeDisabled();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      user: {
        fullName: 'Ada Lovelace',
        username: 'ada',
        email: 'ada@example.com',
        password: 'Passw0rdOK',
        cnfPassword: 'Passw0rdOK',
      },
    });
    resolve(
      jsonResponse(201, {
        success: true,
        message: 'Account created successfully. Please log in.',
        data: { accessToken: 'A', refreshToken: 'R', user: sampleUser },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/signin'));
    expect(await screen.findByText('Account created successfully. Please log in.')).toBeInTheDocument();
    expect([getAccessToken(), getRefreshToken()]).toEqual(['A', 'R']);
    expect(store.getState().auth).toEqual({ status: false, loggedInUser: sampleUser });
  });

  it('shows the server message as an error toast and under the field on a conflict', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(409, {
          success: false,
          message: 'Username is already taken',
          code: 'CONFLICT',
          issues: [{ path: 'user.username', message: 'Username is already taken' }],
        }),
      ),
    );
    renderWithApp(<SignupForm />, '/signup');
    await fill(valid);
    await waitFor(() => expect(screen.getAllByText('Username is already taken')).toHaveLength(2));
    expect(screen.getByTestId('location')).toHaveTextContent('/signup');
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it('falls back to "Signup failed" when the server says nothing useful', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 500 })),
    );
    renderWithApp(<SignupForm />, '/signup');
    await fill(valid);
    expect(await screen.findByText('Signup failed')).toBeInTheDocument();
  });
});
