import type { AdminDevice, AdminUser } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '@/components/form-actions.tsx';
import { TextField } from '@/components/form-field.tsx';
import { Modal } from '@/components/modal.tsx';
import { Switch } from '@/components/switch.tsx';
import type { QueryView } from '@/lib/store/query-view.ts';
import type { DeviceInput } from '../../api/add-device.ts';
import { UserMultiSelect } from './user-multi-select.tsx';

interface DeviceFormModalProps {
  /** The device being edited; none for 'Add New Device'. */
  device?: AdminDevice;
  users: QueryView<AdminUser[]>;
  onRetryUsers: () => void;
  onClose: () => void;
  /** Sends the form; resolves true when saved (the page then closes the modal). */
  onSubmit: (input: DeviceInput) => Promise<boolean>;
}

interface BackupContactsProps {
  users: QueryView<AdminUser[]>;
  assigned: readonly string[];
  backup: readonly string[];
  onChange: (ids: string[]) => void;
}

/**
 * Which assigned users are backup contacts: everyone assigned sees the device's alerts, primary
 * contacts are notified of each, backup contacts only when a high-priority one goes unacknowledged.
 */
function BackupContacts({ users, assigned, backup, onChange }: BackupContactsProps) {
  if (assigned.length === 0 || users.status !== 'ready') return null;
  const names = new Map(users.data.map((u) => [u._id, u.username]));
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Backup contacts</legend>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Notified only when a high-priority alert is not acknowledged in time.
      </p>
      <ul className="space-y-1">
        {assigned.map((id) => (
          <li key={id}>
            <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
              <input
                type="checkbox"
                className="size-4 accent-teal-700"
                checked={backup.includes(id)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...backup, id] : backup.filter((b) => b !== id))
                }
              />
              {names.get(id) ?? id}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** 'Add New Device' and 'Edit Device': name (required), validity (active by default), assigned users and which are backups. */
export function DeviceFormModal({ device, users, onRetryUsers, onClose, onSubmit }: DeviceFormModalProps) {
  const [deviceName, setDeviceName] = useState(device?.deviceName ?? '');
  const [isValid, setIsValid] = useState(device?.isValid ?? true);
  const [assigned, setAssigned] = useState<string[]>(() => [...(device?.users ?? [])]);
  const [backup, setBackup] = useState<string[]>(() => [...(device?.backupUsers ?? [])]);
  const [busy, setBusy] = useState(false);
  const nameFilled = deviceName.trim() !== '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!nameFilled || busy) return;
    setBusy(true);
    const backupUsers = backup.filter((id) => assigned.includes(id));
    const saved = await onSubmit({ deviceName: deviceName.trim(), isValid, users: assigned, backupUsers });
    if (!saved) setBusy(false);
  };

  return (
    <Modal open title={device ? 'Edit Device' : 'Add New Device'} onClose={busy ? () => {} : onClose}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label="Device Name"
          autoComplete="off"
          required
          data-autofocus
          value={deviceName}
          onChange={(e) => setDeviceName(e.target.value)}
        />
        <div className="space-y-1.5">
          <span className="block text-sm font-medium text-slate-700 dark:text-slate-200">Status</span>
          <Switch
            checked={isValid}
            label="Device active"
            onChange={setIsValid}
            onText="Active"
            offText="Inactive"
          />
        </div>
        <UserMultiSelect users={users} onRetry={onRetryUsers} selected={assigned} onChange={setAssigned} />
        <BackupContacts users={users} assigned={assigned} backup={backup} onChange={setBackup} />
        <FormActions
          className="pt-2"
          onCancel={onClose}
          submitLabel={device ? 'Update Device' : 'Add Device'}
          busyLabel={device ? 'Updating...' : 'Adding...'}
          busy={busy}
          disabled={!nameFilled}
        />
      </form>
    </Modal>
  );
}
