import { type AlertRecord, alertTypeLabel } from '@vitalwatch/shared';
import { useEffect, useRef } from 'react';
import { toast } from 'react-toastify';
import { useAlarmSound } from '@/lib/use-alarm-sound.ts';
import { useDocumentAttention } from '@/lib/use-document-attention.ts';

/** The toast a live alert raised (user-area-layout.tsx announces alerts with this id). */
export const alertToastId = (alertId: string) => `alert-${alertId}`;

/** "(2) FALL": how many high-priority alerts wait, and the newest one's type. */
export const attentionLabel = (alerts: readonly AlertRecord[]): string | null => {
  const newest = alerts[0];
  return newest ? `(${alerts.length}) ${alertTypeLabel(newest.alertType).toUpperCase()}` : null;
};

/**
 * Everything that says "a high-priority alert waits" outside the banner, for as long as one is
 * unacknowledged: the tab's title and favicon, the sound (when this browser turned it on), and
 * the alert's toast, which stays until the alert is acknowledged (here or by anyone else).
 */
export function useUrgentAttention(alerts: readonly AlertRecord[]): { soundBlocked: boolean } {
  useDocumentAttention(attentionLabel(alerts));
  const { blocked } = useAlarmSound(alerts[0]?._id ?? null);
  const shown = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const now = new Set(alerts.map((a) => a._id));
    for (const id of shown.current) if (!now.has(id)) toast.dismiss(alertToastId(id));
    shown.current = now;
  }, [alerts]);
  return { soundBlocked: blocked };
}
