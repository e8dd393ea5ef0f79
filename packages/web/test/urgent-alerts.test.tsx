import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { URGENT_SOUND_REPEAT_MS } from '@vitalwatch/shared';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NavLinkItem } from '@/app/layouts/header/nav-link-item.tsx';
import { UrgentAlertsBanner } from '@/features/alerts/components/urgent-alerts-banner.tsx';
import { readAlarmSoundSetting, storeAlarmSoundSetting, unlockAlarmSound } from '@/lib/alarm-sound.ts';
import { connectRealtime, disconnectRealtime } from '@/lib/socket.ts';
import { useAlarmSound } from '@/lib/use-alarm-sound.ts';
import { BADGED_FAVICON, useDocumentAttention } from '@/lib/use-document-attention.ts';
import { json, makeAlert, mockApi, ok, renderSignedIn } from './dashboard-fixtures.tsx';
import { sockets } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));

afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe('urgent banner', () => {
  it('keeps its alerts when a refresh fails, says since when, and Retry clears the notice', async () => {
    const fall = makeAlert({ _id: 'f', alertTitle: 'Fall detected', priority: 'high', status: 'active' });
    const answers = [
      () => ok({ alerts: [fall], nextCursor: null, total: 1, unreadCount: 1 }),
      () => json(500, { success: false, message: 'Internal error', code: 'INTERNAL' }),
      () => ok({ alerts: [fall], nextCursor: null, total: 1, unreadCount: 1 }),
    ];
    let call = 0;
    mockApi({ '/alert/all': () => answers[Math.min(call++, answers.length - 1)]!() });
    renderSignedIn(<UrgentAlertsBanner />);
    const banner = await screen.findByTestId('urgent-banner');
    expect(banner).toHaveTextContent('Fall detected');
    expect(within(banner).getByRole('link', { name: 'Fall detected' })).toHaveAttribute(
      'href',
      `/dashboard?device=${fall.device}`,
    );

    // The socket comes (back): the list is fetched again, and that fails.
    connectRealtime('u1');
    act(() => sockets.at(-1)!.fire('connect'));
    const notice = await within(banner).findByTestId('urgent-refresh-failed');
    expect(notice).toHaveTextContent(/Could not refresh alerts — showing what was known at \d\d:\d\d/);
    expect(banner).toHaveTextContent('Fall detected');

    await userEvent.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(banner).queryByTestId('urgent-refresh-failed')).toBeNull());
    expect(banner).toHaveTextContent('Fall detected');
  });
});

describe('the tab while something needs attention', () => {
  function Attention({ label, page }: { label: string | null; page: string }) {
    useDocumentAttention(label);
    return <title>{page}</title>;
  }

  beforeEach(() => {
    document.head.innerHTML = '<link rel="icon" href="/favicon.svg" />';
  });

  it('prefixes whatever page title is shown and badges the favicon; both come back after', async () => {
    const icon = () => document.querySelector('link[rel="icon"]')?.getAttribute('href');
    const { rerender } = render(<Attention label="(1) FALL" page="Profile Settings · VitalWatch" />);
    await waitFor(() => expect(document.title).toBe('(1) FALL — Profile Settings · VitalWatch'));
    expect(icon()).toBe(BADGED_FAVICON);

    rerender(<Attention label="(1) FALL" page="Alerts History · VitalWatch" />);
    await waitFor(() => expect(document.title).toBe('(1) FALL — Alerts History · VitalWatch'));

    rerender(<Attention label={null} page="Alerts History · VitalWatch" />);
    expect(document.title).toBe('Alerts History · VitalWatch');
    expect(icon()).toBe('/favicon.svg');
  });
});

describe('alarm sound', () => {
  const started = vi.fn();
  class FakeAudioContext extends EventTarget {
    state = 'running';
    currentTime = 0;
    destination = {};
    resume = () => Promise.resolve();
    createOscillator = () => ({
      type: 'sine',
      frequency: { value: 0 },
      connect: (node: unknown) => node,
      start: started,
      stop: vi.fn(),
    });
    createGain = () => ({
      gain: { setValueAtTime: vi.fn(), linearRampToValueAtTime: vi.fn() },
      connect: (node: unknown) => node,
    });
  }

  it('is off unless this browser turned it on; a stored value it cannot read counts as off', () => {
    expect(readAlarmSoundSetting()).toBe(false);
    localStorage.setItem('urgent-alert-sound', 'loud');
    expect(readAlarmSoundSetting()).toBe(false);
    storeAlarmSoundSetting(true);
    expect(readAlarmSoundSetting()).toBe(true);
  });

  it('plays a 10-pulse burst at once and every 10 s while an alert waits, and stops when it is acknowledged', () => {
    vi.useFakeTimers();
    vi.stubGlobal('AudioContext', FakeAudioContext);
    started.mockClear();
    unlockAlarmSound();
    storeAlarmSoundSetting(true);
    const { rerender } = renderHook(({ alertId }) => useAlarmSound(alertId), {
      initialProps: { alertId: 'a1' as string | null },
    });
    expect(started).toHaveBeenCalledTimes(10);
    act(() => vi.advanceTimersByTime(URGENT_SOUND_REPEAT_MS));
    expect(started).toHaveBeenCalledTimes(20);
    rerender({ alertId: null });
    act(() => vi.advanceTimersByTime(3 * URGENT_SOUND_REPEAT_MS));
    expect(started).toHaveBeenCalledTimes(20);
  });
});

describe('header Alerts link', () => {
  it('names and shows the unread count', () => {
    render(
      <MemoryRouter>
        <NavLinkItem item={{ label: 'Alerts', to: '/dashboard/alerts' }} className="" unread={3} />
      </MemoryRouter>,
    );
    // jsdom joins the parts without the space a browser puts there (e2e checks Chromium's name).
    const link = screen.getByRole('link', { name: /^Alerts ?\(3 unread\)$/ });
    expect(within(link).getByTestId('unread-badge')).toHaveTextContent('3');
  });
});
