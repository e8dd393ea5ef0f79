import {
  type AdminDevice,
  type AdminDeviceLatest,
  DEVICE_SETUP_MESSAGES,
  isDeviceOnline,
  relativeTime,
} from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { HeartPulseIcon, WifiIcon, WifiOffIcon } from '@/components/icons.tsx';
import { MetricCards, MetricCardsSkeleton } from '@/components/metric-cards.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { ErrorState } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import type { QueryView } from '@/lib/store/query-view.ts';
import { useNow } from '@/lib/use-now.ts';
import { useSendTestReadingMutation } from '../../api/send-test-reading.ts';

interface DeviceReadingPanelProps {
  device: AdminDevice;
  latest: QueryView<AdminDeviceLatest>;
  onRetry: () => void;
  /** Fetch the latest reading again (after a test reading was stored). */
  onSent: () => void;
}

/** Online, offline or never heard from, and whether the device may send at all. */
function DeviceState({ device, latest, now }: { device: AdminDevice; latest: AdminDeviceLatest; now: Date }) {
  const at = latest.healthData?.createdAt;
  const online = isDeviceOnline(at, now);
  const text = !at
    ? 'No reading yet'
    : `${online ? 'Online' : 'Offline'} · last reading: ${relativeTime(at, now)}`;
  return (
    <div className="space-y-1 text-sm">
      <p
        data-testid="device-state"
        className={`flex items-center gap-2 font-medium ${online ? 'text-emerald-800 dark:text-emerald-300' : 'text-slate-700 dark:text-slate-300'}`}
      >
        {online ? <WifiIcon className="size-4" /> : <WifiOffIcon className="size-4" />}
        {text}
      </p>
      {!device.isValid && (
        <p className="text-amber-800 dark:text-amber-300">
          Inactive: its readings are refused until you switch it to Active.
        </p>
      )}
    </div>
  );
}

/**
 * The device's newest reading as its carers see it, its connection state, and "Send a test
 * reading": the server stores one normal reading through the device's own ingest path, so the
 * admin sees a reading arrive before any device is set up.
 */
export function DeviceReadingPanel({ device, latest, onRetry, onSent }: DeviceReadingPanelProps) {
  const now = useNow(15_000);
  const [send, { isLoading: sending }] = useSendTestReadingMutation();

  const sendTestReading = async () => {
    try {
      await send(device._id).unwrap();
      toast.success(DEVICE_SETUP_MESSAGES.testReadingSent);
      onSent();
    } catch (error) {
      toast.error(errorMessage(asApiError(error), DEVICE_SETUP_MESSAGES.testReadingFailed));
    }
  };

  return (
    <section aria-labelledby="latest-reading-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="latest-reading-heading" className="font-semibold text-slate-900 dark:text-white">
          Latest reading
        </h3>
        <Button size="sm" onClick={sendTestReading} disabled={sending || !device.isValid}>
          {sending ? <Spinner className="size-4" /> : <HeartPulseIcon className="size-4" />}
          Send a test reading
        </Button>
      </div>
      {latest.status === 'loading' && <MetricCardsSkeleton />}
      {latest.status === 'error' && (
        <ErrorState
          title={DEVICE_SETUP_MESSAGES.latestFetchFailed}
          message={latest.message}
          onRetry={onRetry}
        />
      )}
      {latest.status === 'ready' && (
        <>
          <DeviceState device={device} latest={latest.data} now={now} />
          {latest.data.healthData ? (
            <MetricCards record={latest.data.healthData} now={now} />
          ) : (
            <p className="rounded-xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
              Nothing received yet. Send a test reading to see one arrive here, or set the device up with its
              API auth code (the commands below send one the way the device will).
            </p>
          )}
          {latest.refreshError && (
            <p className="text-sm text-amber-800 dark:text-amber-300">
              Could not refresh ({latest.refreshError}): this is the last reading fetched.
            </p>
          )}
        </>
      )}
    </section>
  );
}
