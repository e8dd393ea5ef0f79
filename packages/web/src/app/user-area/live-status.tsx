import { useRealtimeStatus } from '@/lib/socket.ts';

const LABELS = {
  connected: { text: 'Live', dot: 'bg-emerald-500' },
  connecting: { text: 'Connecting…', dot: 'bg-amber-400' },
  reconnecting: { text: 'Reconnecting…', dot: 'bg-amber-400' },
  offline: { text: 'Offline', dot: 'bg-slate-400' },
} as const;

/** Whether live updates are flowing right now. */
export function LiveStatus() {
  const { text, dot } = LABELS[useRealtimeStatus()];
  return (
    <p role="status" className="flex items-center gap-1.5 text-xs font-medium">
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      {text}
    </p>
  );
}
