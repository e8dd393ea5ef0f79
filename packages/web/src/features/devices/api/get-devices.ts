import { contracts, type UserDevice } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** A device list with `device` in place of the one with its id, or added at the end. */
export function upsertDevice(devices: readonly UserDevice[], device: UserDevice): UserDevice[] {
  return devices.some((d) => d._id === device._id)
    ? devices.map((d) => (d._id === device._id ? device : d))
    : [...devices, device];
}

/**
 * `contracts.device.list` in the store: the devices assigned to the signed-in user, fetched afresh
 * when a screen that shows them opens (nothing is kept once none does).
 */
export const userDevicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    userDevices: build.query<UserDevice[], void>({
      ...fromContract(
        contracts.device.list,
        () => ({}),
        (response) => response.data.devices,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useUserDevicesQuery } = userDevicesApi;

/** A device the server has saved (added, renamed) takes its place in the user's list. */
export const deviceSaved = (device: UserDevice) =>
  userDevicesApi.util.updateQueryData('userDevices', undefined, (list) => upsertDevice(list, device));
