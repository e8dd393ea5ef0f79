import { ADMIN_ERRORS, type ComponentStatus, type SystemStatus } from '@vitalwatch/shared';
import { Card } from '@/components/card.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import type { QueryView } from '@/lib/store/query-view.ts';
import { OVERALL_TEXT, STATUS_STYLES } from '../../utils/system-status.ts';
import { RefreshFailed } from './refresh-failed.tsx';

function StatusDot({ status }: { status: ComponentStatus }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block size-2.5 shrink-0 rounded-full ${STATUS_STYLES[status].dot}`}
    />
  );
}

function StatusBadge({ status }: { status: ComponentStatus }) {
  const style = STATUS_STYLES[status];
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold ${style.tone}`}
    >
      <StatusDot status={status} />
      {style.label}
    </span>
  );
}

/** The overall line in its colour, then each component with its status and what was checked. */
export function SystemStatusView({ status }: { status: SystemStatus }) {
  const overall = status.overallStatus;
  return (
    <>
      <p
        data-status={overall}
        className={`mb-4 flex items-center gap-2 rounded-xl border px-4 py-3 text-sm font-semibold ${STATUS_STYLES[overall].tone}`}
      >
        <StatusDot status={overall} />
        {OVERALL_TEXT[overall]}
      </p>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {status.components.map((c) => (
          <li key={c.name} className="flex items-start justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-medium text-slate-900 dark:text-slate-100">{c.name}</p>
              {c.detail && (
                <p className="text-xs break-words text-slate-500 dark:text-slate-400">{c.detail}</p>
              )}
            </div>
            <StatusBadge status={c.status} />
          </li>
        ))}
      </ul>
    </>
  );
}

interface SystemStatusCardProps {
  state: QueryView<SystemStatus>;
  onRetry: () => void;
  className?: string;
}

/** 'System Status': Database, API Service, Notification Service, Email Service. */
export function SystemStatusCard({ state, onRetry, className }: SystemStatusCardProps) {
  return (
    <Card title="System Status" className={className}>
      {state.status === 'loading' && (
        <LoadingRegion label="Checking system status">
          <Skeleton className="mb-4 h-11" />
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} className="my-4 h-6" />
          ))}
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={ADMIN_ERRORS.systemStatusFetchFailed} message={state.message} onRetry={onRetry} />
      )}
      {state.status === 'ready' && (
        <>
          <SystemStatusView status={state.data} />
          <RefreshFailed message={state.refreshError} />
        </>
      )}
    </Card>
  );
}
