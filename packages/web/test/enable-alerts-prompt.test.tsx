import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EnableAlertsPrompt,
  PROMPT_DISMISSED_KEY,
} from '@/features/alerts/components/enable-alerts-prompt.tsx';

/** A browser with push support that has (or has not) been asked for notifications. */
function browserWithPermission(permission: NotificationPermission) {
  const requestPermission = vi.fn(async () => 'denied' as const);
  Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
  vi.stubGlobal('PushManager', class PushManager {});
  vi.stubGlobal('indexedDB', {});
  vi.stubGlobal('Notification', { permission, requestPermission });
  return { requestPermission };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  localStorage.clear();
});

describe('EnableAlertsPrompt', () => {
  it('asks the browser only when the user presses the button, never on its own', async () => {
    const { requestPermission } = browserWithPermission('default');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(<EnableAlertsPrompt userId="u1" />);
    expect(screen.getByRole('region', { name: 'Alerts on this browser' })).toBeVisible();
    expect(requestPermission).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Enable alerts on this browser' }));
    expect(requestPermission).toHaveBeenCalledOnce();
    expect(screen.queryByRole('region', { name: 'Alerts on this browser' })).toBeNull();
  });

  it('is shown once: Not now hides it for good on this browser', async () => {
    browserWithPermission('default');
    const { unmount } = render(<EnableAlertsPrompt userId="u1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Alerts on this browser' })).toBeNull();
    expect(localStorage.getItem(PROMPT_DISMISSED_KEY)).toBe('1');
    unmount();
    render(<EnableAlertsPrompt userId="u1" />);
    expect(screen.queryByRole('region', { name: 'Alerts on this browser' })).toBeNull();
  });

  it('is not shown once the browser has an answer, or cannot do push', () => {
    browserWithPermission('denied');
    const { unmount } = render(<EnableAlertsPrompt userId="u1" />);
    expect(screen.queryByRole('region', { name: 'Alerts on this browser' })).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    render(<EnableAlertsPrompt userId="u1" />);
    expect(screen.queryByRole('region', { name: 'Alerts on this browser' })).toBeNull();
  });
});
