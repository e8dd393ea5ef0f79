import { ADMIN_ERRORS, type AdminStats } from '@vitalwatch/shared';
import type { ReactNode } from 'react';
import { BellIcon, PhoneIcon, UsersIcon } from '@/components/icons.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import type { QueryView } from '@/lib/store/query-view.ts';
import { RefreshFailed } from './refresh-failed.tsx';

const numberFormat = new Intl.NumberFormat('en-US');

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  tone: string;
}

function StatCard({ label, value, icon, tone }: StatCardProps) {
  return (
    <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className={`flex size-12 shrink-0 items-center justify-center rounded-xl ${tone}`}>{icon}</div>
      <dl>
        <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</dt>
        <dd className="text-2xl font-bold text-slate-900 tabular-nums dark:text-white">{value}</dd>
      </dl>
    </div>
  );
}

const CARDS = [
  {
    key: 'usersCount',
    label: 'Total Users',
    icon: <UsersIcon className="size-6" />,
    tone: 'bg-teal-100 text-teal-700 dark:bg-teal-950 dark:text-teal-300',
  },
  {
    key: 'devicesCount',
    label: 'Total Devices',
    icon: <PhoneIcon className="size-6" />,
    tone: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  },
  {
    key: 'alertsUnreadCount',
    label: 'Active Alerts',
    icon: <BellIcon className="size-6" />,
    tone: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
  },
] as const satisfies readonly { key: keyof AdminStats; label: string; icon: ReactNode; tone: string }[];

interface StatCardsProps {
  state: QueryView<AdminStats>;
  onRetry: () => void;
}

/** Total Users, Total Devices and Active Alerts (alerts nobody has read yet). */
export function StatCards({ state, onRetry }: StatCardsProps) {
  if (state.status === 'error') {
    return <ErrorState title={ADMIN_ERRORS.statsFetchFailed} message={state.message} onRetry={onRetry} />;
  }
  const grid = (
    <div className="grid gap-4 sm:grid-cols-3">
      {CARDS.map((card) => (
        <StatCard
          key={card.key}
          label={card.label}
          icon={card.icon}
          tone={card.tone}
          value={
            state.status === 'ready' ? (
              numberFormat.format(state.data[card.key])
            ) : (
              <Skeleton className="mt-1 h-7 w-16" />
            )
          }
        />
      ))}
    </div>
  );
  if (state.status === 'loading')
    return <LoadingRegion label="Loading platform statistics">{grid}</LoadingRegion>;
  return (
    <div>
      {grid}
      <RefreshFailed message={state.refreshError} />
    </div>
  );
}
