import { ADMIN_ERRORS, type AdminDevice, DEVICE_MESSAGES, TOASTS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { type DeviceInput, useAddAdminDeviceMutation } from '../api/add-device.ts';
import { useChangeValidityMutation } from '../api/change-validity.ts';
import { useDeleteDeviceMutation } from '../api/delete-device.ts';
import { type CodeType, useRegenerateCodeMutation } from '../api/regenerate-code.ts';
import { useUpdateDeviceMutation } from '../api/update-device.ts';

const REGENERATED: Record<CodeType, string> = {
  activationCode: DEVICE_MESSAGES.activationCodeRegenerated,
  apiAuthCode: DEVICE_MESSAGES.apiAuthCodeRegenerated,
};
const REGENERATE_FAILED: Record<CodeType, string> = {
  activationCode: ADMIN_ERRORS.regenerateActivationCodeFailed,
  apiAuthCode: ADMIN_ERRORS.regenerateApiAuthCodeFailed,
};

/** A mutation's result as `unwrap()` gives it. */
type Call = { unwrap: () => Promise<unknown> };

/**
 * The device-management calls with their toasts (server message or the spec's fallback). A success
 * changes the device list in the store in place; the promise says whether the call succeeded.
 */
export function useDeviceActions() {
  const [toggling, setToggling] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState(false);
  const [addDevice] = useAddAdminDeviceMutation();
  const [updateDevice] = useUpdateDeviceMutation();
  const [changeValidity] = useChangeValidityMutation();
  const [regenerateCode] = useRegenerateCodeMutation();
  const [deleteDevice] = useDeleteDeviceMutation();

  const run = async (call: Call, done: string, fallback: string): Promise<boolean> => {
    try {
      await call.unwrap();
      toast.success(done);
      return true;
    } catch (error) {
      toast.error(errorMessage(asApiError(error), fallback));
      return false;
    }
  };

  const toggle = async (device: AdminDevice) => {
    setToggling((ids) => new Set(ids).add(device._id));
    await run(
      changeValidity({ id: device._id, isValid: !device.isValid }),
      TOASTS.deviceUpdated,
      ADMIN_ERRORS.changeValidityFailed,
    );
    setToggling((ids) => {
      const next = new Set(ids);
      next.delete(device._id);
      return next;
    });
  };

  return {
    toggling,
    deleting,
    toggle,
    add: (input: DeviceInput) => run(addDevice(input), DEVICE_MESSAGES.added, ADMIN_ERRORS.addDeviceFailed),
    edit: (id: string, input: DeviceInput) =>
      run(updateDevice({ id, device: input }), TOASTS.deviceUpdated, ADMIN_ERRORS.editDeviceFailed),
    regenerate: async (id: string, codeType: CodeType) => {
      await run(regenerateCode({ id, codeType }), REGENERATED[codeType], REGENERATE_FAILED[codeType]);
    },
    remove: async (id: string) => {
      setDeleting(true);
      const ok = await run(deleteDevice(id), TOASTS.deviceDeleted, ADMIN_ERRORS.deleteDeviceFailed);
      setDeleting(false);
      return ok;
    },
  };
}

export type DeviceActions = ReturnType<typeof useDeviceActions>;
