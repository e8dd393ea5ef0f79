import { ADMIN_ERRORS } from '@vitalwatch/shared';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { KeyIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PATHS } from '@/lib/paths.ts';
import { getStats } from '../api/get-stats.ts';
import { getSystemStatus } from '../api/get-system-status.ts';
import { getUserGrowth } from '../api/get-user-growth.ts';
import { useAdminResource } from '../hooks/use-admin-resource.ts';
import { browserTimeZone } from '../utils/user-growth.ts';
import { StatCards } from './overview/stat-cards.tsx';
import { SystemStatusCard } from './overview/system-status-card.tsx';
import { UserGrowthCard } from './overview/user-growth-card.tsx';

/** How often the overview's figures are fetched again while it is on screen. */
export const OVERVIEW_REFRESH_MS = 30_000;
const refresh = { refreshMs: OVERVIEW_REFRESH_MS };

/** Dashboard Overview (/admin-dashboard): stat cards, User Growth and System Status, kept fresh. */
export function AdminOverviewPage() {
  const stats = useAdminResource(getStats, ADMIN_ERRORS.statsFetchFailed, refresh);
  const loadGrowth = useCallback(() => getUserGrowth(browserTimeZone()), []);
  const growth = useAdminResource(loadGrowth, ADMIN_ERRORS.userGrowthFetchFailed, refresh);
  const status = useAdminResource(getSystemStatus, ADMIN_ERRORS.systemStatusFetchFailed, refresh);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Dashboard Overview · VitalWatch</title>
      <PageHeader
        title="Dashboard Overview"
        subtitle="Platform statistics, user growth and system status"
        actions={
          <Link to={PATHS.adminAudit} className={buttonClasses('secondary')}>
            <KeyIcon className="size-4" />
            Audit Log
          </Link>
        }
      />
      <div className="space-y-6">
        <StatCards state={stats.state} onRetry={stats.retry} />
        <div className="grid gap-6 lg:grid-cols-3">
          <UserGrowthCard state={growth.state} onRetry={growth.retry} className="lg:col-span-2" />
          <SystemStatusCard state={status.state} onRetry={status.retry} />
        </div>
      </div>
    </div>
  );
}
