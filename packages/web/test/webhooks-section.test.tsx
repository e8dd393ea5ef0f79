import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlatformWebhooksCard } from '@/features/admin/components/overview/platform-webhooks-card.tsx';
import { TeamWebhooksModal } from '@/features/admin/components/teams/team-webhooks-modal.tsx';
import { WebhooksSection } from '@/features/profile/components/webhooks-section.tsx';
import { json, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';

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
  previousSecretUntil: null as string | null,
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

const tries = [
  {
    _id: '12',
    messageId: 'a1b2c3d4-0000-4000-8000-000000000001',
    alertId: null,
    at: new Date().toISOString(),
    attempt: 5,
    status: 503,
    ok: false,
    response: 'upstream down',
  },
  {
    _id: '11',
    messageId: 'b1b2c3d4-0000-4000-8000-000000000002',
    alertId: null,
    at: new Date().toISOString(),
    attempt: 2,
    status: 500,
    ok: false,
    response: 'boom',
  },
  {
    _id: '10',
    messageId: 'c1b2c3d4-0000-4000-8000-000000000003',
    alertId: null,
    at: new Date().toISOString(),
    attempt: 1,
    status: 200,
    ok: true,
    response: 'ok',
  },
];

describe('a webhook’s delivery log', () => {
  it('Profile: lists the last tries with the answers, the dead letter marked, and Replay queues one again', async () => {
    const calls = mockApi({
      '/webhook/list': () => ok({ webhooks: [hook] }),
      '/webhook/log/': () => ok({ deliveries: tries }),
      '/webhook/replay/': () => ({ success: true, message: 'Delivery queued again' }),
    });
    const user = userEvent.setup();
    renderSignedIn(<WebhooksSection />, '/dashboard/profile');
    const toggle = await screen.findByRole('button', { name: `Delivery log of ${hook.url}` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const log = await screen.findByRole('list', { name: `Delivery log of ${hook.url}` });
    expect(within(log).getByText('Gave up (503): dead letter')).toBeInTheDocument();
    expect(within(log).getByText('Did not arrive (500), tried again')).toBeInTheDocument();
    expect(within(log).getByText('Arrived (200)')).toBeInTheDocument();
    expect(within(log).getByText('upstream down')).toBeInTheDocument();
    await user.click(within(log).getByRole('button', { name: 'Replay delivery 12' }));
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain(`/webhook/replay/${hook._id}/12`));
  });

  it('admin platform webhooks: the same log and Replay on the platform’s routes', async () => {
    const calls = mockApi({
      '/admin/webhooks/list': () => ok({ webhooks: [hook] }),
      '/admin/webhooks/log/': () => ok({ deliveries: tries.slice(0, 1) }),
      '/admin/webhooks/replay/': () => ({ success: true, message: 'Delivery queued again' }),
    });
    const user = userEvent.setup();
    renderSignedIn(<PlatformWebhooksCard />, '/admin');
    await user.click(await screen.findByRole('button', { name: `Delivery log of ${hook.url}` }));
    const log = await screen.findByRole('list', { name: `Delivery log of ${hook.url}` });
    expect(within(log).getByText('Gave up (503): dead letter')).toBeInTheDocument();
    await user.click(within(log).getByRole('button', { name: 'Replay delivery 12' }));
    await vi.waitFor(() =>
      expect(calls.map((c) => c.path)).toContain(`/admin/webhooks/replay/${hook._id}/12`),
    );
  });
});

describe('"Rotate secret"', () => {
  const until = '2026-11-28T10:00:00.000Z';

  it('Profile: asks first, then shows the new secret once and until when the old one also signs', async () => {
    let listed = [hook];
    const calls = mockApi({
      '/webhook/list': () => ok({ webhooks: listed }),
      '/webhook/rotate/': () => {
        listed = [{ ...hook, previousSecretUntil: until }];
        return ok({ webhook: listed[0], secret: 'whsec_bmV3c2VjcmV0' });
      },
    });
    const user = userEvent.setup();
    renderSignedIn(<WebhooksSection />, '/dashboard/profile');
    await user.click(await screen.findByRole('button', { name: `Rotate secret of ${hook.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.map((c) => c.path)).not.toContain(`/webhook/rotate/${hook._id}`);

    await user.click(screen.getByRole('button', { name: `Rotate secret of ${hook.url}` }));
    const again = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(again).toHaveTextContent(
      'For 24 hours every message is signed with both the new and the old secret',
    );
    await user.click(within(again).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByText('whsec_bmV3c2VjcmV0')).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain(`/webhook/rotate/${hook._id}`);
    expect(
      await screen.findByText(`The old secret also signs until ${new Date(until).toLocaleString()}`),
    ).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a care team’s: busy while it runs, and a failure is told and shows no secret', async () => {
    let answer: (r: Response) => void = () => {};
    const calls = mockApi({
      '/admin/teams/': (_body, path) =>
        path.includes('/rotate/')
          ? new Promise<Response>((resolve) => {
              answer = resolve;
            })
          : ok({ webhooks: [hook] }),
    });
    const user = userEvent.setup();
    const team = { _id: '0a1b2c3d-0000-4000-8000-00000000000a', name: 'Ward 3' };
    renderSignedIn(
      <TeamWebhooksModal team={team as Parameters<typeof TeamWebhooksModal>[0]['team']} onClose={() => {}} />,
      '/admin',
    );
    await user.click(await screen.findByRole('button', { name: `Rotate secret of ${hook.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    const busy = await within(dialog).findByRole('button', { name: 'Rotating…' });
    expect(busy).toBeDisabled();
    expect(calls.map((c) => c.path)).toContain(`/admin/teams/${team._id}/webhooks/rotate/${hook._id}`);
    answer(json(500, { success: false, message: 'Database unavailable', code: 'INTERNAL' }));
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Rotate secret' })).toBeEnabled();
    expect(screen.queryByText(/Signing secret \(copy it now/)).not.toBeInTheDocument();
  });
});
