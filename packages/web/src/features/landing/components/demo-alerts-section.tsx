import { relativeTime } from '@vitalwatch/shared';
import type { ReactNode } from 'react';
import { AlertTriangleIcon, BellIcon, InfoIcon } from '@/components/icons.tsx';
import type { DemoAlert, DemoAlertType } from '../hooks/demo-alerts.ts';
import { useDemoAlerts } from '../hooks/use-demo-alerts.ts';

const TYPE_STYLE: Record<DemoAlertType, { icon: ReactNode; badge: string; ring: string; label: string }> = {
  alert: {
    icon: <AlertTriangleIcon />,
    badge: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
    ring: 'border-l-red-500 dark:border-l-red-500',
    label: 'Alert',
  },
  warning: {
    icon: <BellIcon />,
    badge: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
    ring: 'border-l-amber-500 dark:border-l-amber-500',
    label: 'Warning',
  },
  info: {
    icon: <InfoIcon />,
    badge: 'bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300',
    ring: 'border-l-sky-500 dark:border-l-sky-500',
    label: 'Info',
  },
};

function DemoAlertItem({ alert, now, onRead }: { alert: DemoAlert; now: number; onRead: () => void }) {
  const style = TYPE_STYLE[alert.type];
  return (
    <li data-testid="demo-alert" data-type={alert.type} data-read={alert.read}>
      <button
        type="button"
        onClick={onRead}
        className={`flex w-full items-start gap-3 rounded-xl border border-l-4 border-slate-200 p-4 text-left transition hover:bg-slate-50 dark:border-slate-800 ${style.ring} dark:hover:bg-slate-800/60 ${
          alert.read ? 'bg-white opacity-70 dark:bg-slate-900' : 'bg-white shadow-sm dark:bg-slate-900'
        }`}
      >
        <span className={`mt-0.5 rounded-lg p-2 ${style.badge}`}>{style.icon}</span>
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-900 dark:text-white">{alert.title}</span>
            <span className="sr-only">({style.label})</span>
            {!alert.read && (
              <span className="rounded-full bg-teal-700 px-2 py-0.5 text-xs font-semibold text-white dark:bg-teal-400 dark:text-slate-950">
                New
              </span>
            )}
          </span>
          <span className="mt-1 block text-sm text-slate-600 dark:text-slate-300">{alert.message}</span>
          <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
            {relativeTime(new Date(alert.createdAt), new Date(now))}
            {alert.read ? ' · Read' : ' · Click to mark as read'}
          </span>
        </span>
      </button>
    </li>
  );
}

/** Sample alerts only: shows how alerts arrive, without any real data. */
export function DemoAlertsSection() {
  const { alerts, unread, now, markRead } = useDemoAlerts();
  return (
    <section aria-labelledby="demo-alerts-title" className="bg-slate-100/70 py-20 dark:bg-slate-900/40">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 sm:px-6 lg:grid-cols-5 lg:px-8">
        <div className="lg:col-span-2">
          <p className="text-sm font-semibold uppercase tracking-wide text-teal-700 dark:text-teal-400">
            Live demo
          </p>
          <h2
            id="demo-alerts-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            Real-time Health Alerts
          </h2>
          <p className="mt-4 text-slate-600 dark:text-slate-300">
            When a reading leaves its normal range, the people who care are told within seconds. These are
            sample alerts: a new one arrives every 15 seconds. Click one to mark it as read.
          </p>
        </div>
        <div className="lg:col-span-3">
          <div className="mb-3 flex items-center justify-between text-sm">
            <span className="flex items-center gap-2 font-medium text-slate-700 dark:text-slate-200">
              <span className="relative flex size-2.5">
                <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75 motion-reduce:animate-none" />
                <span className="relative inline-flex size-2.5 rounded-full bg-emerald-500" />
              </span>
              Sample feed
            </span>
            <span data-testid="demo-unread" className="text-slate-600 dark:text-slate-400">
              {unread} unread
            </span>
          </div>
          <ul className="space-y-3">
            {alerts.map((alert) => (
              <DemoAlertItem key={alert.id} alert={alert} now={now} onRead={() => markRead(alert.id)} />
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
