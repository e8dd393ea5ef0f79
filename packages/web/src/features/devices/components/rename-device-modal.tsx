import { zodResolver } from '@hookform/resolvers/zod';
import { deviceNameField, TOASTS, type UserDevice } from '@vitalwatch/shared';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { FormActions } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import { TextField } from '@/components/form-field.tsx';
import { Modal } from '@/components/modal.tsx';
import { useFormFailure } from '@/lib/use-form-failure.ts';
import { useRenameDeviceMutation } from '../api/rename-device.ts';

const renameSchema = z.object({ deviceName: deviceNameField });

interface RenameDeviceModalProps {
  /** The device being renamed; null when the modal is closed. */
  device: UserDevice | null;
  onClose: () => void;
}

/**
 * 'Edit name': a new name for one of the user's devices. The owner names it for everyone or just
 * for themselves; anyone else gives it a name only they see (the shared name stays).
 */
export function RenameDeviceModal({ device, onClose }: RenameDeviceModalProps) {
  const [renameDevice] = useRenameDeviceMutation();
  const { failure, attempt, clearFailure } = useFormFailure();
  const owner = device?.circleRole === 'owner';
  const [scope, setScope] = useState<'personal' | 'shared'>('personal');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(renameSchema), defaultValues: { deviceName: '' } });

  useEffect(() => {
    reset({ deviceName: device?.deviceName ?? '' });
    setScope(device?.circleRole === 'owner' && device.nickname === null ? 'shared' : 'personal');
    clearFailure();
  }, [device, reset, clearFailure]);

  const onSubmit = handleSubmit(async ({ deviceName }) => {
    if (!device) return;
    await attempt(
      async () => {
        await renameDevice({ deviceId: device._id, newName: deviceName, scope }).unwrap();
        toast.success(TOASTS.deviceRenamed);
        onClose();
      },
      {
        fallback: TOASTS.deviceRenameFailed,
        showIssues: (error) => {
          const issue = error.issues.find((i) => i.path.endsWith('newName'));
          if (issue) setError('deviceName', { type: 'server', message: issue.message });
        },
      },
    );
  });

  return (
    <Modal
      open={device !== null}
      onClose={onClose}
      title="Edit name"
      description="Choose a name you will recognise."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <TextField
          label="Device Name"
          autoComplete="off"
          data-autofocus
          error={errors.deviceName?.message}
          {...register('deviceName')}
        />
        {owner ? (
          <fieldset className="space-y-2 text-sm text-slate-800 dark:text-slate-200">
            <legend className="mb-1 font-medium">Who sees this name</legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="name-scope"
                checked={scope === 'shared'}
                onChange={() => setScope('shared')}
              />
              Everyone (you own this device)
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="name-scope"
                checked={scope === 'personal'}
                onChange={() => setScope('personal')}
              />
              Only me
            </label>
          </fieldset>
        ) : (
          device && (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Only you see this name. Everyone else sees “{device.sharedName}”, which only the device's owner
              or an admin can change.
            </p>
          )
        )}
        {failure && <FormError message={failure} />}
        <FormActions
          className="pt-2"
          onCancel={onClose}
          busy={isSubmitting}
          submitLabel="Save"
          busyLabel="Saving..."
        />
      </form>
    </Modal>
  );
}
