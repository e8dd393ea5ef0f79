import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store.ts';
import { useHealthHistory } from '@/features/health/hooks/use-health-history.ts';
import { connectRealtime, disconnectRealtime } from '@/lib/socket.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { json, ok, user } from './dashboard-fixtures.tsx';
import { lastSocket } from './socket-fake.ts';

vi.mock('socket.io-client', () => import('./socket-fake.ts').then((m) => m.ioModule()));

const HOUR = 3_600_000;

interface Sent {
  from: string;
  to: string;
  signal: AbortSignal | undefined;
  answer: () => void;
}

/** History requests held until answered, each with the signal it was sent with. */
function holdHistories() {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
      const { from, to } = JSON.parse(String(init?.body)) as { from: string; to: string };
      return new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        const answer = () =>
          resolve(
            json(
              200,
              ok({
                resolution: 'minute',
                bucketSeconds: 60,
                from,
                to,
                buckets: [],
                summary: { readings: 1, heartRate: null, spo2: null, temperature: null, battery: null },
              }),
            ),
          );
        sent.push({ from, to, signal: init?.signal ?? undefined, answer });
      });
    }),
  );
  window.localStorage.setItem('access-token', 'test-token');
  return sent;
}

afterEach(() => {
  disconnectRealtime();
  vi.unstubAllGlobals();
});

function renderHistory() {
  const store = makeStore();
  store.dispatch(loggedIn(user));
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(() => useHealthHistory('d1', 'day'), { wrapper });
}

describe('health history zoom', () => {
  it('keeps one zoomed window in flight: each new step of a zoom cancels the request it replaced', async () => {
    const sent = holdHistories();
    const { result } = renderHistory();
    await waitFor(() => expect(sent).toHaveLength(1));
    act(() => sent[0]!.answer());
    await waitFor(() => expect(result.current.history).not.toBeNull());

    const { from, to } = result.current.window;
    // Three notches of the wheel, each reported while the window before it is still loading.
    for (let step = 1; step <= 3; step++) {
      act(() => result.current.setView({ from: from + step * HOUR, to: to - step * HOUR }));
      await waitFor(() => expect(sent).toHaveLength(1 + step));
      await new Promise((r) => setTimeout(r, 20));
    }
    // The same window reported again (the chart does, once per notch, when the zoom settles).
    act(() => result.current.setView({ from: from + 3 * HOUR, to: to - 3 * HOUR }));
    await new Promise((r) => setTimeout(r, 20));
    const zooms = sent.slice(1);
    expect(zooms).toHaveLength(3);
    expect(zooms.map((s) => s.from)).toEqual([1, 2, 3].map((s) => new Date(from + s * HOUR).toISOString()));
    // The range's request is answered; of the zoomed ones only the last is still wanted.
    expect(sent.filter((s) => !s.signal?.aborted)).toEqual([sent[0], zooms[2]]);

    act(() => zooms[2]!.answer());
    await waitFor(() => expect(result.current.shown?.from).toBe(new Date(from + 3 * HOUR).toISOString()));

    // Back to the whole range: nothing more is asked, and the range is what is shown.
    act(() => result.current.resetView());
    expect(result.current.shown).toBe(result.current.history);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toHaveLength(4);
  });

  it('asks for the range again on connecting, cancelling the request the new window replaced', async () => {
    const sent = holdHistories();
    const { result } = renderHistory();
    await waitFor(() => expect(sent).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 5));
    connectRealtime('u1');
    act(() => lastSocket().fire('connect'));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[0]!.signal?.aborted).toBe(true);
    expect(sent[1]!.to).toBe(new Date(result.current.window.to).toISOString());
    act(() => sent[1]!.answer());
    await waitFor(() => expect(result.current.history?.to).toBe(sent[1]!.to));
  });
});
