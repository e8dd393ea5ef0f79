import { useParams } from 'react-router';
import { Button } from '@/components/button.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { useNow } from '@/lib/use-now.ts';
import { useGatewaysQuery } from '../api/get-gateways.ts';
import { useRevokeGatewayMutation } from '../api/revoke-gateway.ts';
import { useGateway } from '../hooks/use-gateway.ts';
import { LatestValues, SendingPanel, WearableList } from './gateway-panels.tsx';
import { NoBluetooth } from './no-bluetooth.tsx';

const hasBluetooth = () => typeof navigator !== 'undefined' && navigator.bluetooth !== undefined;

/** The browsers that forward this device's wearables, each revocable (this one's key too). */
function GatewayKeys({
  deviceId,
  ownId,
  onRevokedOwn,
}: {
  deviceId: string;
  ownId: string | null;
  onRevokedOwn: () => void;
}) {
  const { data: gateways = [] } = useGatewaysQuery(deviceId);
  const [revoke, { isLoading }] = useRevokeGatewayMutation();
  return (
    <section
      aria-labelledby="keys-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="keys-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Browsers sending for this device
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Each has its own key, good for this device only. Revoking one stops it at its next batch.
      </p>
      {gateways.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">None yet.</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {gateways.map((g) => (
            <li key={g._id} className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm text-slate-900 dark:text-slate-100">
                {g.label}
                {g._id === ownId ? ' (this browser)' : ''} · paired {new Date(g.createdAt).toLocaleString()}
              </span>
              <Button
                variant="danger"
                size="sm"
                disabled={isLoading}
                onClick={async () => {
                  await revoke({ deviceId, gatewayId: g._id }).unwrap();
                  if (g._id === ownId) onRevokedOwn();
                }}
              >
                Revoke {g.label}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** My Devices → a device → Connect a Bluetooth wearable (/dashboard/devices/:deviceId/bluetooth). */
export function WearablePage() {
  const { deviceId = '' } = useParams();
  const now = useNow(5000);
  const { view, ownGatewayId, pair, disconnect, forgetKey } = useGateway(deviceId);
  const supported = hasBluetooth();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Connect a Bluetooth wearable · VitalWatch</title>
      <PageHeader
        title="Connect a Bluetooth wearable"
        subtitle="This browser reads a pulse oximeter, heart-rate strap or thermometer and sends its readings for this device. Keep this page open."
        actions={supported && <Button onClick={() => void pair()}>Connect a Bluetooth wearable</Button>}
      />
      {!supported && <NoBluetooth />}
      {supported && (
        <div className="grid gap-4 md:grid-cols-2">
          <WearableList view={view} onDisconnect={disconnect} />
          <LatestValues view={view} now={now} />
          <SendingPanel view={view} now={now} />
          <GatewayKeys deviceId={deviceId} ownId={ownGatewayId} onRevokedOwn={() => void forgetKey()} />
        </div>
      )}
    </div>
  );
}
