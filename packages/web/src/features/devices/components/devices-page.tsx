import { ERRORS, RELATIVE_TIME_REFRESH_MS, type UserDevice } from '@vitalwatch/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { AlarmSettingsModal } from '@/components/alarm-settings-modal.tsx';
import { Button } from '@/components/button.tsx';
import { PhoneIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { useNow } from '@/lib/use-now.ts';
import { useDevices } from '../hooks/use-devices.ts';
import { AddDeviceModal } from './add-device-modal.tsx';
import { CareCircleModal } from './care-circle-modal.tsx';
import { DeviceCard } from './device-card.tsx';
import { RenameDeviceModal } from './rename-device-modal.tsx';
import { ShareDeviceModal } from './share-device-modal.tsx';

function DeviceSkeletons() {
  return (
    <LoadingRegion label="Loading your devices">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((n) => (
          <div
            key={n}
            className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex gap-3">
              <Skeleton className="size-10" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-4 w-1/2" />
              </div>
            </div>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-8 w-24" />
          </div>
        ))}
      </div>
    </LoadingRegion>
  );
}

/** My Devices (/dashboard/devices): the card grid, 'Add Device', 'Edit name', 'Alarm settings', 'Care circle'. */
export function DevicesPage() {
  const { state, reload } = useDevices();
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const [params, setParams] = useSearchParams();
  // A claim link: Add Device opens at once with the label's activation code in it.
  const [claimed] = useState(() => params.get('claim') ?? '');
  const [adding, setAdding] = useState(claimed !== '');
  const [renaming, setRenaming] = useState<UserDevice | null>(null);
  const [tuning, setTuning] = useState<UserDevice | null>(null);
  const [sharing, setSharing] = useState<UserDevice | null>(null);
  const [circle, setCircle] = useState<UserDevice | null>(null);
  const hasDevices = state.status === 'ready' && state.data.length > 0;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>My Devices · VitalWatch</title>
      <PageHeader
        title="My Devices"
        subtitle="Manage your connected health devices"
        actions={hasDevices && <Button onClick={() => setAdding(true)}>Add Device</Button>}
      />
      {state.status === 'loading' && <DeviceSkeletons />}
      {state.status === 'error' && (
        <ErrorState title={ERRORS.devicesFetchFailed} message={state.message} onRetry={reload} />
      )}
      {state.status === 'ready' && state.data.length === 0 && (
        <EmptyState
          icon={<PhoneIcon className="size-10" />}
          title="No devices yet"
          hint="Add a device with the activation code that came with it to start monitoring."
          action={<Button onClick={() => setAdding(true)}>Add Your First Device</Button>}
        />
      )}
      {hasDevices && (
        // minmax(0, 1fr) and min-w-0: a long device name is cut with an ellipsis inside its card
        // instead of widening the column (and the page) past a phone's screen.
        <ul className="grid grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {state.data.map((device) => (
            <li key={device._id} className="flex min-w-0">
              <DeviceCard
                device={device}
                now={now}
                onRename={setRenaming}
                onAlarmSettings={setTuning}
                onShare={setSharing}
                onCircle={setCircle}
              />
            </li>
          ))}
        </ul>
      )}
      <AddDeviceModal
        open={adding}
        activationCode={claimed}
        onClose={() => {
          setAdding(false);
          if (params.has('claim')) setParams({}, { replace: true });
        }}
      />
      <RenameDeviceModal device={renaming} onClose={() => setRenaming(null)} />
      <AlarmSettingsModal device={tuning} onClose={() => setTuning(null)} />
      <ShareDeviceModal device={sharing} onClose={() => setSharing(null)} />
      <CareCircleModal device={circle} onClose={() => setCircle(null)} />
    </div>
  );
}
