import { relativeTime } from '@vitalwatch/shared';
import { Button } from '@/components/button.tsx';
import type { GatewayView, Vital, WearableView } from '../hooks/use-gateway.ts';
import type { SenderState } from '../lib/sender.ts';

const LINK_TEXT: Record<WearableView['state'], string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting',
  stopped: 'Disconnected',
};

const SENDER_TEXT: Record<SenderState, string> = {
  idle: 'Up to date',
  sending: 'Sending',
  waiting: 'Waiting for the network: readings are kept and sent when it is back',
  refused: 'The server refuses this device (disabled?): readings are kept',
  revoked: "This browser's key was revoked: pair again to go on sending",
};

const VITAL_ROWS: { vital: Vital; label: string; unit: string }[] = [
  { vital: 'spo2', label: 'SpO2', unit: '%' },
  { vital: 'heartRate', label: 'Heart rate', unit: ' BPM' },
  { vital: 'temperature', label: 'Temperature', unit: ' °F' },
  { vital: 'battery', label: 'Battery', unit: '%' },
];

const panel =
  'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900';
const label = 'text-sm text-slate-600 dark:text-slate-400';
const value = 'font-semibold text-slate-900 dark:text-white';

export function WearableList({
  view,
  onDisconnect,
}: {
  view: GatewayView;
  onDisconnect: (id: string) => void;
}) {
  return (
    <section aria-labelledby="wearables-title" className={panel}>
      <h2 id="wearables-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Wearables
      </h2>
      {view.wearables.length === 0 ? (
        <p className={`mt-2 ${label}`}>None connected yet.</p>
      ) : (
        <ul className="mt-3 space-y-3" aria-live="polite">
          {view.wearables.map((w) => (
            <li key={w.id} className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <p className={value}>{w.name}</p>
                <p className={label} data-testid="link-state">
                  {LINK_TEXT[w.state]}
                  {w.state === 'reconnecting' && w.retry
                    ? ` (next try in ${Math.round(w.retry.inMs / 1000)} s)`
                    : ''}
                </p>
                {w.state === 'reconnecting' && w.retry?.lastError && (
                  <p className="text-xs text-slate-600 dark:text-slate-400">Last try: {w.retry.lastError}</p>
                )}
              </div>
              {w.state !== 'stopped' && (
                <Button variant="secondary" size="sm" onClick={() => onDisconnect(w.id)}>
                  Disconnect {w.name}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {view.error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {view.error}
        </p>
      )}
    </section>
  );
}

export function LatestValues({ view, now }: { view: GatewayView; now: Date }) {
  return (
    <section aria-labelledby="latest-title" className={panel}>
      <h2 id="latest-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Last values
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        {VITAL_ROWS.map(({ vital, label: name, unit }) => {
          const last = view.latest[vital];
          return (
            <div key={vital}>
              <dt className={label}>{name}</dt>
              <dd className={value} data-testid={`last-${vital}`}>
                {last ? `${last.value}${unit}` : '—'}
              </dd>
              {last && (
                <dd className="text-xs text-slate-600 dark:text-slate-400">{relativeTime(last.at, now)}</dd>
              )}
            </div>
          );
        })}
      </dl>
    </section>
  );
}

export function SendingPanel({ view, now }: { view: GatewayView; now: Date }) {
  const { sender } = view;
  return (
    <section aria-labelledby="sending-title" className={panel}>
      <h2 id="sending-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Sending
      </h2>
      <p className={`mt-2 ${value}`} aria-live="polite" data-testid="sender-state">
        {SENDER_TEXT[sender.state]}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        <div>
          <dt className={label}>Waiting in this browser</dt>
          <dd className={value} data-testid="queue-length">
            {sender.queued}
          </dd>
        </div>
        <div>
          <dt className={label}>Last sent</dt>
          <dd className={value}>{sender.lastSentAt ? relativeTime(sender.lastSentAt, now) : 'Not yet'}</dd>
        </div>
        <div>
          <dt className={label}>Dropped (invalid, questionable, no contact)</dt>
          <dd className={value}>{view.dropped}</dd>
        </div>
        <div>
          <dt className={label}>Screen kept on</dt>
          <dd className={value}>{view.wakeLock ? 'Yes' : 'No'}</dd>
        </div>
      </dl>
    </section>
  );
}
