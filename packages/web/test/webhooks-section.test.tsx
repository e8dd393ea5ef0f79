import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhooksSection } from '@/features/profile/components/webhooks-section.tsx';
import { mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const hook = {
  _id: '6f1c1f4e-8b1a-4c39-9a43-8f0d1e2a3b4c',
  url: 'https://hooks.example.com/vw',
  format: 'slack' as const,
  createdAt: '2026-11-26T10:00:00.000Z',
  lastDelivery: null,
};

describe('Profile → Webhooks', () => {
  it('adds a webhook showing its secret once, and "Send a test alert" says whether it arrived', async () => {
    let listed: (typeof hook)[] = [];
    const calls = mockApi({
      '/webhook/list': () => ok({ webhooks: listed }),
      '/webhook/create': () => {
        listed = [hook];
        return ok({ webhook: hook, secret: 'whsec_c2VjcmV0' });
      },
      '/webhook/test/': () => ok({ ok: false, status: 404, response: 'no such hook' }),
    });
    const user = userEvent.setup();
    renderSignedIn(<WebhooksSection />, '/dashboard/profile');
    await user.type(await screen.findByLabelText('Webhook URL'), hook.url);
    await user.selectOptions(screen.getByLabelText('Format'), 'slack');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('whsec_c2VjcmV0')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/webhook/create')?.body).toEqual({ url: hook.url, format: 'slack' });
    await user.click(await screen.findByRole('button', { name: 'Send a test alert' }));
    expect(await screen.findByText('Test alert: Did not arrive (404)')).toBeInTheDocument();
  });
});
