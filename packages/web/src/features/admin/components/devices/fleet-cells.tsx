import { type FleetDevice, isDeviceOnline, LOW_BATTERY_PERCENT } from '@vitalwatch/shared';
import { Cell } from '@/components/data-table.tsx';

/** The fleet columns, after Status: online state, battery and open alerts (issue 31). */
export const FLEET_COLUMNS = ['Online', 'Battery', 'Open Alerts'] as const;

const badge = 'inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium';
const ONLINE = `${badge} bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300`;
const OFFLINE = `${badge} bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300`;

/** What an operator acts on, per device: is it reporting, is its battery low, are alerts open. */
export function FleetCells({ device }: { device: FleetDevice }) {
  const online = isDeviceOnline(device.lastUpdate);
  const low = device.battery !== null && device.battery < LOW_BATTERY_PERCENT;
  return (
    <>
      <Cell label="Online">
        <span className={online ? ONLINE : OFFLINE}>
          {device.lastUpdate === null ? 'Never reported' : online ? 'Online' : 'Offline'}
        </span>
      </Cell>
      <Cell label="Battery" className="tabular-nums">
        {device.battery === null ? (
          '—'
        ) : (
          <span className={low ? 'font-semibold text-red-700 dark:text-red-400' : undefined}>
            {`${Math.round(device.battery)} %`}
            {low && ' (low)'}
          </span>
        )}
      </Cell>
      <Cell label="Open Alerts" className="tabular-nums">
        {device.openAlerts > 0 ? (
          <span className="font-semibold text-red-700 dark:text-red-400">{device.openAlerts}</span>
        ) : (
          '0'
        )}
      </Cell>
    </>
  );
}
