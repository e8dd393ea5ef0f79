import { isDeviceOnline } from '@vitalwatch/shared';
import { WifiIcon, WifiOffIcon } from '@/components/icons.tsx';

interface ConnectionCardProps {
  /** When the device last sent a reading (ISO), or null if never. */
  lastUpdate: string | null;
  now: Date;
}

/** Device connection: online when the last reading is at most 15 minutes old (spec texts). */
export function ConnectionCard({ lastUpdate, now }: ConnectionCardProps) {
  const online = isDeviceOnline(lastUpdate, now);
  return (
    <section
      aria-labelledby="connection-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="connection-title" className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">
        Device Connection
      </h2>
      <div className="flex items-start gap-3">
        <span
          className={`flex size-10 shrink-0 items-center justify-center rounded-full ${
            online
              ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300'
              : 'bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400'
          }`}
        >
          {online ? <WifiIcon /> : <WifiOffIcon />}
        </span>
        <div className="min-w-0 flex-1">
          {online ? (
            <>
              <p className="font-semibold text-slate-900 dark:text-white">Device Connected</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">Strong signal, stable connection</p>
            </>
          ) : (
            <>
              <p className="font-semibold text-slate-900 dark:text-white">Device Offline</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Last update was more than 15 minutes ago
              </p>
              {/* The spec's text is true of a device that never reported too; this says which it is. */}
              {!lastUpdate && (
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  No readings received from this device yet
                </p>
              )}
            </>
          )}
        </div>
      </div>
      {online && (
        <p className="mt-4 flex items-center justify-center gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm font-semibold text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300">
          <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
          Device Online
        </p>
      )}
    </section>
  );
}
