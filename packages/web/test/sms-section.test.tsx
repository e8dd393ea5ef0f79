import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SMS_MESSAGES, type SmsStatus } from '@vitalwatch/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SmsSection } from '@/features/profile/components/sms-section.tsx';
import { json, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const none: SmsStatus = {
  configured: true,
  phone: null,
  verified: false,
  optedOut: false,
  codePending: false,
};
const pending: SmsStatus = { ...none, phone: '+14•••••0123', codePending: true };
const verified: SmsStatus = { ...pending, verified: true, codePending: false };

describe('Profile → Notifications → SMS', () => {
  it('sends a code, shows a wrong code under its field, verifies, and the test reports the SID', async () => {
    let codes = 0;
    const calls = mockApi({
      '/sms/status': () => ok(none),
      '/sms/number': () => ok(pending),
      '/sms/verify': () => {
        codes += 1;
        return codes === 1
          ? json(400, {
              success: false,
              message: SMS_MESSAGES.wrongCode,
              code: 'invalidInput',
              issues: [{ path: 'code', message: SMS_MESSAGES.wrongCode }],
            })
          : ok(verified);
      },
      '/sms/test': () => ok({ accepted: true, sid: 'SM0123', detail: null }),
    });
    const user = userEvent.setup();
    renderSignedIn(<SmsSection />, '/dashboard/profile');
    await user.type(await screen.findByLabelText('Phone number'), '+14155550123');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(calls.find((c) => c.path === '/sms/number')?.body).toEqual({ phone: '+14155550123' });
    expect(await screen.findByText('+14•••••0123')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Code from the SMS'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SMS_MESSAGES.wrongCode)).toBeInTheDocument();
    expect(screen.getByLabelText('Code from the SMS')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText('Code from the SMS'));
    await user.type(screen.getByLabelText('Code from the SMS'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(/^Verified/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send a test SMS' }));
    expect(await screen.findByText('Test SMS accepted by the provider (SM0123)')).toBeInTheDocument();
  });

  it('says when the number opted out (no test button) and when SMS is not set up', async () => {
    mockApi({ '/sms/status': () => ok({ ...verified, optedOut: true }) });
    const { unmount } = renderSignedIn(<SmsSection />, '/dashboard/profile');
    expect(await screen.findByText(/^Opted out/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a test SMS' })).not.toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();

    mockApi({ '/sms/status': () => ok({ ...none, configured: false }) });
    renderSignedIn(<SmsSection />, '/dashboard/profile');
    expect(await screen.findByText(/SMS is not set up on this server/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
  });

  it('shows a refusal of the server in the card', async () => {
    mockApi({
      '/sms/status': () => ok(none),
      '/sms/number': () =>
        json(429, { success: false, message: SMS_MESSAGES.tooManyCodes, code: 'rateLimited' }),
    });
    const user = userEvent.setup();
    renderSignedIn(<SmsSection />, '/dashboard/profile');
    await user.type(await screen.findByLabelText('Phone number'), '+14155550123');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SMS_MESSAGES.tooManyCodes);
  });
});
