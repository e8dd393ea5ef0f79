import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VALIDATION } from '@vitalwatch/shared';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store.ts';
import { ProfilePage } from '@/features/profile/components/profile-page.tsx';
import { SecuritySection } from '@/features/profile/components/security-section.tsx';
import { json, mockApi, ok, renderSignedIn, user as sampleUser } from './dashboard-fixtures.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

async function openPasswordForm() {
  const user = userEvent.setup();
  renderSignedIn(<SecuritySection />, '/dashboard/profile');
  await user.click(screen.getByRole('button', { name: /Change Password/ }));
  const fill = async (current: string, next: string, confirm: string) => {
    for (const [label, value] of [
      ['Current Password', current],
      ['New Password', next],
      ['Confirm New Password', confirm],
    ] as const) {
      await user.clear(screen.getByLabelText(label));
      if (value) await user.type(screen.getByLabelText(label), value);
    }
  };
  return { user, fill, submit: () => screen.getByRole('button', { name: 'Update Password' }) };
}

describe('profile: password change (spec 5)', () => {
  it('shows the hint and keeps the button disabled unless both match with 6+ characters', async () => {
    mockApi({});
    const { fill, submit } = await openPasswordForm();
    expect(screen.getByText(VALIDATION.passwordHint)).toBeInTheDocument();
    expect(submit()).toBeDisabled();
    await fill('OldPassw0rd', 'abcde', 'abcde');
    expect(submit()).toBeDisabled();
    await fill('OldPassw0rd', 'abcdef', 'abcdeg');
    expect(submit()).toBeDisabled();
    expect(screen.getByText(VALIDATION.passwordsMismatch)).toBeInTheDocument();
    await fill('OldPassw0rd', 'abcdef', 'abcdef');
    expect(submit()).toBeEnabled();
    expect(screen.queryByText(VALIDATION.passwordsMismatch)).not.toBeInTheDocument();
  });

  it('says when the new password equals the current one, and does not send it', async () => {
    const calls = mockApi({});
    const { user, fill, submit } = await openPasswordForm();
    await fill('Same1234', 'Same1234', 'Same1234');
    expect(screen.getByText(VALIDATION.newPasswordSame)).toBeInTheDocument();
    await user.click(submit());
    expect(screen.getAllByText(VALIDATION.newPasswordSame)).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });

  it('applies the weaker submit check: fails only when short AND missing a character class', async () => {
    const calls = mockApi({
      '/user/change-password': () => ({
        success: true,
        message: 'Password changed successfully',
        data: { accessToken: 'fresh-access-token' },
      }),
    });
    const { user, fill, submit } = await openPasswordForm();
    await fill('OldPassw0rd', 'abcdef', 'abcdef');
    await user.click(submit());
    expect(screen.getByText(VALIDATION.passwordChangeWeak)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    // Short but with all classes passes the client check (the server decides).
    await fill('OldPassw0rd', 'Abc12x', 'Abc12x');
    await user.click(submit());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      path: '/user/change-password',
      body: { oldPassword: 'OldPassw0rd', newPassword: 'Abc12x' },
    });
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });

  it("toasts 'Failed to change password' and shows the server's reason", async () => {
    mockApi({
      '/user/change-password': () =>
        json(400, {
          success: false,
          message: 'Current password is incorrect',
          code: 'VALIDATION_ERROR',
          issues: [{ path: 'oldPassword', message: 'Current password is incorrect' }],
        }),
    });
    const { user, fill, submit } = await openPasswordForm();
    await fill('Wrong1234', 'NewPassw0rd', 'NewPassw0rd');
    await user.click(submit());
    expect(await screen.findByText('Failed to change password')).toBeInTheDocument();
    expect(screen.getByText('Current password is incorrect')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toBeInTheDocument();
  });

  it('Cancel leaves password mode and clears the fields', async () => {
    mockApi({});
    const { user, fill } = await openPasswordForm();
    await fill('a', 'b', 'c');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Change Password/ }));
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
  });
});

describe('profile: personal information', () => {
  const routes = () => ({
    '/push/subscriptions': () => ok({ subscriptions: [] }),
    '/user/update-name': (body: unknown) =>
      ok({ user: { ...sampleUser, fullName: (body as { fullName: string }).fullName } }),
  });

  it('shows the read-only fields and edits the full name', async () => {
    const calls = mockApi(routes());
    const user = userEvent.setup();
    const { store } = renderSignedIn(<ProfilePage />, '/dashboard/profile');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('ada')).toBeInTheDocument();
    expect(screen.getByText('Jan 5, 2026')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Edit Profile/ }));
    const name = screen.getByLabelText('Full Name');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    await user.type(name, 'Ada King');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/user/update-name')?.body).toEqual({ fullName: 'Ada King' });
    expect(store.getState().auth.loggedInUser?.fullName).toBe('Ada King');
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();
  });

  it("toasts 'Failed to update profile' on failure", async () => {
    mockApi({
      ...routes(),
      '/user/update-name': () =>
        json(500, { success: false, message: 'Internal server error', code: 'INTERNAL' }),
    });
    const user = userEvent.setup();
    renderSignedIn(<ProfilePage />, '/dashboard/profile');
    await user.click(screen.getByRole('button', { name: /Edit Profile/ }));
    await user.type(screen.getByLabelText('Full Name'), ' II');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update profile')).toBeInTheDocument();
  });
});

describe('profile: other sections', () => {
  it("shows 'User Not Found' without a signed-in user", () => {
    render(
      <Provider store={makeStore()}>
        <ProfilePage />
      </Provider>,
    );
    expect(screen.getByText('User Not Found')).toBeInTheDocument();
    expect(screen.getByText('Please log in to view your profile.')).toBeInTheDocument();
  });

  it('turns alert emails on and lists and removes connected browsers', async () => {
    const calls = mockApi({
      '/user/alert-emails': (body) => ({
        success: true,
        message: 'Alert emails turned on',
        data: { user: { ...sampleUser, alertEmails: (body as { enabled: boolean }).enabled } },
      }),
      '/push/subscriptions/p1/delete': () => ({ success: true, message: 'Browser disconnected' }),
      '/push/subscriptions': () =>
        ok({
          subscriptions: [
            {
              _id: 'p1',
              userAgent:
                'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
              pushService: 'fcm.googleapis.com',
              createdAt: new Date().toISOString(),
              lastSuccessAt: null,
              lastReceiptAt: null,
              notReceivingSince: null,
            },
          ],
        }),
    });
    const user = userEvent.setup();
    const { store } = renderSignedIn(<ProfilePage />, '/dashboard/profile');
    const toggle = screen.getByRole('switch', { name: /Email me about every new alert/ });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle);
    expect(await screen.findByText('Alert emails turned on')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(store.getState().auth.loggedInUser?.alertEmails).toBe(true);
    expect(calls.find((c) => c.path === '/user/alert-emails')?.body).toEqual({ enabled: true });

    await user.click(await screen.findByRole('button', { name: 'Remove Chrome on Linux' }));
    expect(await screen.findByText('Browser disconnected')).toBeInTheDocument();
    expect(screen.queryByText('Chrome on Linux')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/push/subscriptions/p1/delete')).toBe(true);
  });
});

describe('quiet hours', () => {
  it('turns quiet hours on in the browser’s time zone, then off', async () => {
    const calls = mockApi({
      '/user/quiet-hours': (body) => ({
        success: true,
        message: (body as { quietHours: unknown }).quietHours
          ? 'Quiet hours saved'
          : 'Quiet hours turned off',
        data: { user: { ...sampleUser, quietHours: (body as { quietHours: unknown }).quietHours } },
      }),
      '/push/subscriptions': () => ok({ subscriptions: [] }),
    });
    const user = userEvent.setup();
    const { store } = renderSignedIn(<ProfilePage />, '/dashboard/profile');
    const section = screen.getByRole('region', { name: 'Quiet Hours' });
    expect(section).toHaveTextContent('Off: every alert is pushed to you.');
    await user.click(within(section).getByRole('button', { name: 'Turn on quiet hours' }));
    expect(await screen.findByText('Quiet hours saved')).toBeInTheDocument();
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(calls.find((c) => c.path === '/user/quiet-hours')?.body).toEqual({
      quietHours: { start: '22:00', end: '07:00', timeZone },
    });
    expect(store.getState().auth.loggedInUser?.quietHours?.start).toBe('22:00');
    expect(section).toHaveTextContent('from 22:00 to 07:00');
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Quiet hours turned off')).toBeInTheDocument();
    expect(store.getState().auth.loggedInUser?.quietHours).toBeNull();
  });
});

describe('snoozed alerts', () => {
  it('lists the user’s snoozes and ends one', async () => {
    const until = new Date(Date.now() + 20 * 60_000).toISOString();
    const snooze = { device: 'd1', deviceName: 'Wristband', alertType: 'LOW_SPO2', until };
    const calls = mockApi({
      '/alert/snoozes': () => ok({ snoozes: [snooze] }),
      '/alert/unsnooze': () => ok({ snoozes: [] }),
      '/push/subscriptions': () => ok({ subscriptions: [] }),
    });
    const user = userEvent.setup();
    renderSignedIn(<ProfilePage />, '/dashboard/profile');
    const section = screen.getByRole('region', { name: 'Snoozed Alerts' });
    expect(await within(section).findByText(/Low SpO2 · Wristband · until/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'End snooze of Low SpO2 on Wristband' }));
    expect(await within(section).findByText('Nothing snoozed: every alert reaches you.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/alert/unsnooze')?.body).toEqual({
      deviceId: 'd1',
      alertType: 'LOW_SPO2',
    });
  });
});
