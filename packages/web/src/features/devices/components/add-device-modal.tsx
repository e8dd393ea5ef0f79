import { zodResolver } from '@hookform/resolvers/zod';
import { activationCodeField, deviceNameField, TOASTS } from '@vitalwatch/shared';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { FormActions } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import { TextField } from '@/components/form-field.tsx';
import { Modal } from '@/components/modal.tsx';
import { applyServerIssues } from '@/lib/form-issues.ts';
import { useFormFailure } from '@/lib/use-form-failure.ts';
import { useAddDeviceMutation } from '../api/add-device.ts';

const addDeviceSchema = z.object({ activationCode: activationCodeField, deviceName: deviceNameField });
type AddDeviceForm = z.infer<typeof addDeviceSchema>;
const EMPTY: AddDeviceForm = { activationCode: '', deviceName: '' };

interface AddDeviceModalProps {
  open: boolean;
  onClose: () => void;
  /** From a device label's claim link: the activation code, filled in. */
  activationCode?: string;
}

/**
 * 'Add Device': the activation code that came with the device and a name for it, both required.
 * The device joins the list once the server has added it.
 */
export function AddDeviceModal({ open, onClose, activationCode = '' }: AddDeviceModalProps) {
  const [addDevice] = useAddDeviceMutation();
  const { failure, attempt, clearFailure } = useFormFailure();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(addDeviceSchema), defaultValues: EMPTY });
  useEffect(() => {
    if (open && activationCode) setValue('activationCode', activationCode);
  }, [open, activationCode, setValue]);

  const close = () => {
    reset(EMPTY);
    clearFailure();
    onClose();
  };

  const onSubmit = handleSubmit((values) =>
    attempt(
      async () => {
        await addDevice(values).unwrap();
        toast.success(TOASTS.deviceAdded);
        close();
      },
      {
        fallback: TOASTS.deviceAddFailed,
        showIssues: (error) => applyServerIssues(error, ['activationCode', 'deviceName'], setError),
      },
    ),
  );

  return (
    <Modal
      open={open}
      onClose={close}
      title="Add Device"
      description="Enter the activation code that came with your device and give it a name."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <TextField
          label="Activation Code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          data-autofocus
          error={errors.activationCode?.message}
          {...register('activationCode')}
        />
        <TextField
          label="Device Name"
          autoComplete="off"
          placeholder="e.g. Grandma's wristband"
          error={errors.deviceName?.message}
          {...register('deviceName')}
        />
        {failure && <FormError message={failure} />}
        <FormActions
          className="pt-2"
          onCancel={close}
          busy={isSubmitting}
          submitLabel="Add Device"
          busyLabel="Adding..."
        />
      </form>
    </Modal>
  );
}
