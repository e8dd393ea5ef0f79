import { act, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DemoAlertsSection } from '@/features/landing/components/demo-alerts-section.tsx';
import {
  DEMO_ALERT_TEMPLATES,
  demoAlertsReducer,
  initialDemoAlerts,
} from '@/features/landing/hooks/demo-alerts.ts';
import { useDemoAlerts } from '@/features/landing/hooks/use-demo-alerts.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('demo alerts reducer', () => {
  it('starts with a few unread sample alerts, newest first', () => {
    const state = initialDemoAlerts(NOW);
    expect(state.alerts.length).toBeGreaterThan(0);
    expect(state.alerts.length).toBeLessThanOrEqual(5);
    expect(state.alerts.every((a) => !a.read)).toBe(true);
    const times = state.alerts.map((a) => a.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('adds the four fixed alerts in turn, on top, keeping only the 5 newest', () => {
    let state = initialDemoAlerts(NOW);
    for (let i = 0; i < 6; i++) state = demoAlertsReducer(state, { type: 'tick', now: NOW + i });
    expect(state.alerts).toHaveLength(5);
    expect(state.alerts.map((a) => a.title)).toEqual([
      DEMO_ALERT_TEMPLATES[1]?.title,
      DEMO_ALERT_TEMPLATES[0]?.title,
      DEMO_ALERT_TEMPLATES[3]?.title,
      DEMO_ALERT_TEMPLATES[2]?.title,
      DEMO_ALERT_TEMPLATES[1]?.title,
    ]);
    expect(new Set(state.alerts.map((a) => a.id)).size).toBe(5);
    expect(DEMO_ALERT_TEMPLATES.map((t) => t.type)).toEqual(['alert', 'info', 'warning', 'alert']);
  });

  it('marks one alert read and leaves the others', () => {
    const state = initialDemoAlerts(NOW);
    const target = state.alerts[1]!;
    const next = demoAlertsReducer(state, { type: 'markRead', id: target.id });
    expect(next.alerts.filter((a) => a.read).map((a) => a.id)).toEqual([target.id]);
    expect(demoAlertsReducer(next, { type: 'markRead', id: target.id }).alerts).toEqual(next.alerts);
  });
});

describe('demo alerts over time', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('adds one every 15 seconds, never more than 5', () => {
    const { result } = renderHook(() => useDemoAlerts());
    const start = result.current.alerts.length;
    act(() => vi.advanceTimersByTime(14_999));
    expect(result.current.alerts).toHaveLength(start);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.alerts).toHaveLength(start + 1);
    expect(result.current.alerts[0]?.title).toBe(DEMO_ALERT_TEMPLATES[0]?.title);
    act(() => vi.advanceTimersByTime(15_000 * 10));
    expect(result.current.alerts).toHaveLength(5);
  });

  it('renders the feed, labels times and marks an alert read on click', () => {
    render(<DemoAlertsSection />);
    act(() => vi.advanceTimersByTime(15_000));
    const items = screen.getAllByTestId('demo-alert');
    expect(within(items[0]!).getByText(/Just now/)).toBeInTheDocument();
    expect(items[0]).toHaveAttribute('data-read', 'false');
    const unreadBefore = screen.getByTestId('demo-unread').textContent;
    fireEvent.click(within(items[0]!).getByRole('button'));
    expect(screen.getAllByTestId('demo-alert')[0]).toHaveAttribute('data-read', 'true');
    expect(screen.getByTestId('demo-unread').textContent).not.toBe(unreadBefore);
  });
});
