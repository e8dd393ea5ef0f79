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
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useRenameDeviceMutation } from '../api/rename-device.ts';

const renameSchema = z.object({ deviceName: deviceNameField });

interface RenameDeviceModalProps {
  /** The device being renamed; null when the modal is closed. */
  device: UserDevice | null;
  onClose: () => void;
}

/** 'Edit name': a new name for one of the user's devices. */
export function RenameDeviceModal({ device, onClose }: RenameDeviceModalProps) {
  const [renameDevice] = useRenameDeviceMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(renameSchema), defaultValues: { deviceName: '' } });

  useEffect(() => {
    reset({ deviceName: device?.deviceName ?? '' });
    setFailure(null);
  }, [device, reset]);

  const onSubmit = handleSubmit(async ({ deviceName }) => {
    if (!device) return;
    setFailure(null);
    try {
      await renameDevice({ deviceId: device._id, newName: deviceName }).unwrap();
      toast.success(TOASTS.deviceRenamed);
      onClose();
    } catch (caught) {
      const error = asApiError(caught);
      const issue = error.issues.find((i) => i.path.endsWith('newName'));
      if (issue) setError('deviceName', { type: 'server', message: issue.message });
      const message = errorMessage(error, TOASTS.deviceRenameFailed);
      setFailure(message);
      toast.error(message);
    }
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
