import type { AdminDevice, AdminUser } from '@vitalwatch/shared';
import { AlarmSettingsModal } from '@/components/alarm-settings-modal.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import type { QueryView } from '@/lib/store/query-view.ts';
import type { DeviceActions } from '../../hooks/use-device-actions.ts';
import { DeviceDetailsModal } from './device-details-modal.tsx';
import { DeviceFormModal } from './device-form-modal.tsx';
import type { DeviceAction } from './devices-table.tsx';

/** Which modal is open, and for which device (by id, so it shows the device's latest state). */
export type DeviceModal = { kind: 'add' } | { kind: DeviceAction; id: string } | null;

interface DeviceModalsProps {
  modal: DeviceModal;
  devices: readonly AdminDevice[];
  users: QueryView<AdminUser[]>;
  names: ReadonlyMap<string, string>;
  onRetryUsers: () => void;
  actions: DeviceActions;
  onClose: () => void;
}

/** The one open modal of the device screen; forms mount fresh each time they open. */
export function DeviceModals({
  modal,
  devices,
  users,
  names,
  onRetryUsers,
  actions,
  onClose,
}: DeviceModalsProps) {
  if (modal === null) return null;
  const closeIfDone = (ok: boolean) => {
    if (ok) onClose();
    return ok;
  };
  if (modal.kind === 'add') {
    return (
      <DeviceFormModal
        users={users}
        onRetryUsers={onRetryUsers}
        onClose={onClose}
        onSubmit={async (input) => closeIfDone(await actions.add(input))}
      />
    );
  }
  const device = devices.find((d) => d._id === modal.id);
  if (!device) return null;
  switch (modal.kind) {
    case 'edit':
      return (
        <DeviceFormModal
          device={device}
          users={users}
          onRetryUsers={onRetryUsers}
          onClose={onClose}
          onSubmit={async (input) => closeIfDone(await actions.edit(device._id, input))}
        />
      );
    case 'details':
      return (
        <DeviceDetailsModal
          device={device}
          names={names}
          onRegenerate={(codeType) => actions.regenerate(device._id, codeType)}
          onClose={onClose}
        />
      );
    case 'alarms':
      return <AlarmSettingsModal device={device} onClose={onClose} />;
    case 'delete':
      return (
        <ConfirmDialog
          open
          title={`Delete ${device.deviceName}`}
          message="Are you sure you want to delete this device?"
          confirmLabel="Delete Device"
          busyLabel="Deleting..."
          busy={actions.deleting}
          danger
          onConfirm={async () => {
            await actions.remove(device._id);
            onClose();
          }}
          onCancel={onClose}
        />
      );
  }
}
