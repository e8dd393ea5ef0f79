import { ADMIN_ERRORS } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { CopyIcon, KeyIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PATHS } from '@/lib/paths.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useFleetSummaryQuery } from '../api/get-fleet-pages.ts';
import { useAdminStatsQuery } from '../api/get-stats.ts';
import { useSystemStatusQuery } from '../api/get-system-status.ts';
import { useUserGrowthQuery } from '../api/get-user-growth.ts';
import { browserTimeZone } from '../utils/user-growth.ts';
import { BackupCard } from './overview/backup-card.tsx';
import { ChannelHealthCard } from './overview/channel-health-card.tsx';
import { FleetSummaryCard } from './overview/fleet-summary-card.tsx';
import { PlatformWebhooksCard } from './overview/platform-webhooks-card.tsx';
import { StatCards } from './overview/stat-cards.tsx';
import { SystemStatusCard } from './overview/system-status-card.tsx';
import { UserGrowthCard } from './overview/user-growth-card.tsx';

/** How often the overview's figures are fetched again while it is on screen. */
export const OVERVIEW_REFRESH_MS = 30_000;
/** Polled while the page is open and visible (a hidden tab skips its turns). */
const refresh = { pollingInterval: OVERVIEW_REFRESH_MS, skipPollingIfUnfocused: true };

/** Dashboard Overview (/admin-dashboard): stat cards and channel health, User Growth and System Status kept fresh; Backup and platform webhooks. */
export function AdminOverviewPage() {
  const stats = useAdminStatsQuery(undefined, refresh);
  const growth = useUserGrowthQuery(browserTimeZone(), refresh);
  const status = useSystemStatusQuery(undefined, refresh);
  const fleet = useFleetSummaryQuery(undefined, refresh);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Dashboard Overview · VitalWatch</title>
      <PageHeader
        title="Dashboard Overview"
        subtitle="Platform statistics, user growth and system status"
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to={PATHS.adminShareLinks} className={buttonClasses('secondary')}>
              <CopyIcon className="size-4" />
              Share Links
            </Link>
            <Link to={PATHS.adminAudit} className={buttonClasses('secondary')}>
              <KeyIcon className="size-4" />
              Audit Log
            </Link>
          </div>
        }
      />
      <div className="space-y-6">
        <StatCards state={queryView(stats, ADMIN_ERRORS.statsFetchFailed)} onRetry={stats.refetch} />
        <ChannelHealthCard state={queryView(stats, ADMIN_ERRORS.statsFetchFailed)} />
        <FleetSummaryCard state={queryView(fleet, ADMIN_ERRORS.devicesFetchFailed)} onRetry={fleet.refetch} />
        <div className="grid gap-6 lg:grid-cols-3">
          <UserGrowthCard
            state={queryView(growth, ADMIN_ERRORS.userGrowthFetchFailed)}
            onRetry={growth.refetch}
            className="lg:col-span-2"
          />
          <SystemStatusCard
            state={queryView(status, ADMIN_ERRORS.systemStatusFetchFailed)}
            onRetry={status.refetch}
          />
        </div>
        <BackupCard />
        <PlatformWebhooksCard />
      </div>
    </div>
  );
}
