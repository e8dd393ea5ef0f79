import { PageHeader } from '@/components/page-header.tsx';
import { AlertsHistory } from '@/features/alerts/components/alerts-history.tsx';
import { useDevices } from '@/features/devices/hooks/use-devices.ts';

/** Alerts History (/dashboard/alerts): the history, with the user's devices for its filter. */
export function AlertsPage() {
  const { state } = useDevices();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Alerts History · VitalWatch</title>
      <PageHeader title="Alerts History" subtitle="Review and manage alerts from your devices" />
      <AlertsHistory devices={state.status === 'ready' ? state.data : []} />
    </div>
  );
}
