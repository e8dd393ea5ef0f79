import { ERRORS } from '@vitalwatch/shared';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { PhoneIcon } from '@/components/icons.tsx';
import { MetricCardsSkeleton } from '@/components/metric-cards.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { EnableAlertsPrompt } from '@/features/alerts/components/enable-alerts-prompt.tsx';
import { DevicePicker } from '@/features/devices/components/device-picker.tsx';
import { useDevices } from '@/features/devices/hooks/use-devices.ts';
import { PATHS } from '@/lib/paths.ts';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { useCompactScreen } from '@/lib/use-compact-screen.ts';
import { DeviceOverview } from './device-overview.tsx';

export const TITLE = 'Health Dashboard';
export const SUBTITLE = 'Monitor your health metrics in real-time';

/**
 * The user dashboard (/dashboard): empty state without devices, else the chosen device's overview.
 * The choice is in the address (`?device=<id>`), so an alert can link to its wearer's dashboard;
 * an unknown or missing id shows the first device. On a phone the offer of browser alerts sits
 * under the vitals (UserAreaLayout leaves it out there), so the first screen shows them.
 */
export function OverviewPage() {
  const { state, reload } = useDevices();
  const [params, setParams] = useSearchParams();
  const chosenId = params.get('device');
  const setChosenId = (id: string) => setParams({ device: id }, { replace: true });
  const devices = state.status === 'ready' ? state.data : [];
  const selected = devices.find((d) => d._id === chosenId) ?? devices[0] ?? null;
  const userId = useAppSelector(selectCurrentUser)?._id ?? null;
  const prompt = useCompactScreen() && (
    <div className="mt-3 empty:hidden">
      <EnableAlertsPrompt userId={userId} />
    </div>
  );

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8 compact:py-3">
      <title>Health Dashboard · VitalWatch</title>
      <PageHeader
        title={TITLE}
        subtitle={SUBTITLE}
        actions={
          selected && (
            <>
              {devices.length > 1 && (
                <Link to={PATHS.board} className={buttonClasses('secondary')}>
                  Board: all {devices.length}
                </Link>
              )}
              <DevicePicker devices={devices} selectedId={selected._id} onSelect={setChosenId} />
            </>
          )
        }
      />
      {state.status === 'loading' && (
        <LoadingRegion label="Loading your devices">
          <Skeleton className="mb-6 h-5 w-48" />
          <MetricCardsSkeleton />
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={ERRORS.devicesFetchFailed} message={state.message} onRetry={reload} />
      )}
      {/* Not under the skeleton while loading: it would jump up when the empty state comes. */}
      {state.status !== 'loading' && !selected && prompt}
      {state.status === 'ready' && !selected && (
        <EmptyState
          icon={<PhoneIcon className="size-10" />}
          title="No devices connected"
          hint="Add a device with its activation code to start monitoring your health metrics."
          action={
            <Link to={PATHS.devices} className={buttonClasses('primary', 'md')}>
              Go to Devices
            </Link>
          }
        />
      )}
      {selected && <DeviceOverview key={selected._id} device={selected} afterCards={prompt} />}
    </div>
  );
}
