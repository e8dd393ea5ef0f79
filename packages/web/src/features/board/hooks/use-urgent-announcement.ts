import type { BoardDevice } from '@vitalwatch/shared';
import { useEffect, useRef, useState } from 'react';

/**
 * The text of a polite live region: each new unacknowledged high-priority alert is announced once
 * ("Urgent: SOS on Room 12"), never again on the next reading; the newest urgent alert's id is
 * returned too, for the wall display's tone.
 */
export function useUrgentAnnouncement(devices: readonly BoardDevice[] | undefined) {
  const seen = useRef<Set<string> | null>(null);
  const [text, setText] = useState('');
  const urgent = (devices ?? []).flatMap((d) =>
    d.alerts.filter((a) => a.priority === 'high' && a.status === 'active').map((a) => ({ a, d })),
  );
  const newest = urgent.reduce<string | null>(
    (best, { a }) =>
      best === null || a.receivedAt > (urgent.find((u) => u.a._id === best)?.a.receivedAt ?? '')
        ? a._id
        : best,
    null,
  );
  const key = urgent.map(({ a }) => a._id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the urgent alerts; `urgent` is rebuilt each render.
  useEffect(() => {
    if (devices === undefined) return;
    // Alerts already open when the board opened are not news.
    if (seen.current === null) {
      seen.current = new Set(urgent.map(({ a }) => a._id));
      return;
    }
    const fresh = urgent.filter(({ a }) => !seen.current?.has(a._id));
    for (const { a } of fresh) seen.current.add(a._id);
    if (fresh.length > 0)
      setText(fresh.map(({ a, d }) => `Urgent: ${a.alertTitle} on ${d.deviceName}`).join('. '));
  }, [key, devices === undefined]);
  return { announcement: text, soundingId: newest };
}
