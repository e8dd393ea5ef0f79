import { ADMIN_ERRORS, type AdminDevice, DEVICE_MESSAGES, TOASTS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { addDevice, type DeviceInput } from '../api/add-device.ts';
import { changeValidity } from '../api/change-validity.ts';
import { deleteDevice } from '../api/delete-device.ts';
import { type CodeType, regenerateCode } from '../api/regenerate-code.ts';
import { updateDevice } from '../api/update-device.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';

type UpdateDevices = (change: (devices: AdminDevice[]) => AdminDevice[]) => void;

const REGENERATED: Record<CodeType, string> = {
  activationCode: DEVICE_MESSAGES.activationCodeRegenerated,
  apiAuthCode: DEVICE_MESSAGES.apiAuthCodeRegenerated,
};
const REGENERATE_FAILED: Record<CodeType, string> = {
  activationCode: ADMIN_ERRORS.regenerateActivationCodeFailed,
  apiAuthCode: ADMIN_ERRORS.regenerateApiAuthCodeFailed,
};

/**
 * The device-management calls with their toasts (server message or the spec's fallback). A
 * success changes the list in place; the promise says whether the call succeeded.
 */
export function useDeviceActions(updateDevices: UpdateDevices) {
  const [toggling, setToggling] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState(false);

  const run = async (call: () => Promise<string>, fallback: string): Promise<boolean> => {
    try {
      toast.success(await call());
      return true;
    } catch (error) {
      toast.error(errorMessage(error, fallback));
      return false;
    }
  };
  const saved = (device: AdminDevice) => updateDevices((devices) => upsertById(devices, device));

  const toggle = async (device: AdminDevice) => {
    setToggling((ids) => new Set(ids).add(device._id));
    await run(async () => {
      saved(await changeValidity(device._id, !device.isValid));
      return TOASTS.deviceUpdated;
    }, ADMIN_ERRORS.changeValidityFailed);
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
    add: (input: DeviceInput) =>
      run(async () => {
        saved(await addDevice(input));
        return DEVICE_MESSAGES.added;
      }, ADMIN_ERRORS.addDeviceFailed),
    edit: (id: string, input: DeviceInput) =>
      run(async () => {
        saved(await updateDevice(id, input));
        return TOASTS.deviceUpdated;
      }, ADMIN_ERRORS.editDeviceFailed),
    regenerate: async (id: string, codeType: CodeType) => {
      await run(async () => {
        saved(await regenerateCode(id, codeType));
        return REGENERATED[codeType];
      }, REGENERATE_FAILED[codeType]);
    },
    remove: async (id: string) => {
      setDeleting(true);
      const ok = await run(async () => {
        await deleteDevice(id);
        updateDevices((devices) => removeById(devices, id));
        return TOASTS.deviceDeleted;
      }, ADMIN_ERRORS.deleteDeviceFailed);
      setDeleting(false);
      return ok;
    },
  };
}

export type DeviceActions = ReturnType<typeof useDeviceActions>;
