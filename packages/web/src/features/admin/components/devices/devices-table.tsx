import type { AdminDevice, FleetDevice } from '@vitalwatch/shared';
import { Cell, row } from '@/components/data-table.tsx';
import { IconButton } from '@/components/icon-button.tsx';
import { BellIcon, EyeIcon, PencilIcon, TrashIcon } from '@/components/icons.tsx';
import { Switch } from '@/components/switch.tsx';
import { formatDateTime } from '@/lib/format-date.ts';
import { assignedUsersLabel, usernamesOf } from '../../utils/assigned-users.ts';
import { FLEET_COLUMNS, FleetCells } from './fleet-cells.tsx';

export const DEVICE_COLUMNS = [
  'Device Name',
  'Status',
  ...FLEET_COLUMNS,
  'Assigned Users',
  'Last Updated',
  'Actions',
] as const;

export type DeviceAction = 'details' | 'edit' | 'alarms' | 'delete';

interface DeviceRowProps {
  device: FleetDevice;
  names: ReadonlyMap<string, string>;
  /** A validity change for this device is under way. */
  toggling: boolean;
  onToggle: (device: AdminDevice) => void;
  onAction: (action: DeviceAction, device: AdminDevice) => void;
}

function assignedText(device: AdminDevice, names: ReadonlyMap<string, string>): string {
  if (device.users.length === 0) return 'None';
  const known = usernamesOf(device.users, names);
  // Before the user list arrives (or if it failed), say how many rather than nothing.
  return known.length === 0 ? `${device.users.length} users` : assignedUsersLabel(known);
}

/** One device: name, the validity switch, its users, its last reading and its actions. */
export function DeviceRow({ device, names, toggling, onToggle, onAction }: DeviceRowProps) {
  const all = usernamesOf(device.users, names).join(', ');
  return (
    <tr className={row}>
      <Cell className="font-medium text-slate-900 dark:text-white">{device.deviceName}</Cell>
      <Cell label="Status">
        <Switch
          checked={device.isValid}
          label={`${device.deviceName} active`}
          disabled={toggling}
          onChange={() => onToggle(device)}
          onText="Active"
          offText="Inactive"
        />
      </Cell>
      <FleetCells device={device} />
      <Cell label="Assigned Users" title={all || undefined}>
        {assignedText(device, names)}
      </Cell>
      <Cell label="Last Updated" className="whitespace-nowrap">
        {device.lastUpdate ? formatDateTime(device.lastUpdate) : 'Never'}
      </Cell>
      <Cell label="Actions">
        <div className="flex gap-1">
          <IconButton
            label="View Details"
            icon={<EyeIcon className="size-4" />}
            onClick={() => onAction('details', device)}
          />
          <IconButton
            label="Edit Device"
            icon={<PencilIcon className="size-4" />}
            onClick={() => onAction('edit', device)}
          />
          <IconButton
            label="Alarm Settings"
            icon={<BellIcon className="size-4" />}
            onClick={() => onAction('alarms', device)}
          />
          <IconButton
            label="Delete Device"
            tone="danger"
            icon={<TrashIcon className="size-4" />}
            onClick={() => onAction('delete', device)}
          />
        </div>
      </Cell>
    </tr>
  );
}
