import { useRealtimeStatus } from '@/lib/socket.ts';

const LABELS = {
  connected: { text: 'Live', dot: 'bg-emerald-500' },
  connecting: { text: 'Connecting…', dot: 'bg-amber-400' },
  reconnecting: { text: 'Reconnecting…', dot: 'bg-amber-400' },
  offline: { text: 'Offline', dot: 'bg-slate-400' },
} as const;

/** Connected, but the device has sent nothing for 15 minutes: a green "Live" would vouch for old values. */
const CONNECTED_NO_NEW = { text: 'Connected · no new readings', dot: 'bg-slate-400' } as const;

/**
 * Whether live updates are flowing right now. `fresh`: the device's newest reading is recent;
 * without one, being connected is all that can be said.
 */
export function LiveStatus({ fresh }: { fresh: boolean }) {
  const status = useRealtimeStatus();
  const { text, dot } = status === 'connected' && !fresh ? CONNECTED_NO_NEW : LABELS[status];
  return (
    <p role="status" className="flex items-center gap-1.5 text-xs font-medium">
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      {text}
    </p>
  );
}
