import type { AdminDevice, AdminUser } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '../../../../components/form-actions.tsx';
import { TextField } from '../../../../components/form-field.tsx';
import { Modal } from '../../../../components/modal.tsx';
import type { DeviceInput } from '../../api/add-device.ts';
import type { ResourceState } from '../../hooks/use-admin-resource.ts';
import { Switch } from '../common/switch.tsx';
import { UserMultiSelect } from './user-multi-select.tsx';

interface DeviceFormModalProps {
  /** The device being edited; none for 'Add New Device'. */
  device?: AdminDevice;
  users: ResourceState<AdminUser[]>;
  onRetryUsers: () => void;
  onClose: () => void;
  /** Sends the form; resolves true when saved (the page then closes the modal). */
  onSubmit: (input: DeviceInput) => Promise<boolean>;
}

/** 'Add New Device' and 'Edit Device': name (required), validity (active by default), assigned users. */
export function DeviceFormModal({ device, users, onRetryUsers, onClose, onSubmit }: DeviceFormModalProps) {
  const [deviceName, setDeviceName] = useState(device?.deviceName ?? '');
  const [isValid, setIsValid] = useState(device?.isValid ?? true);
  const [assigned, setAssigned] = useState<string[]>(() => [...(device?.users ?? [])]);
  const [busy, setBusy] = useState(false);
  const nameFilled = deviceName.trim() !== '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!nameFilled || busy) return;
    setBusy(true);
    const saved = await onSubmit({ deviceName: deviceName.trim(), isValid, users: assigned });
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
