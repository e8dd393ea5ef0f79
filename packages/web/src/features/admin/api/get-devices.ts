import { type AdminDevice, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import type { AppDispatch, RootState } from '@/lib/store/hooks.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';
import { fleetDeviceRemoved, fleetDeviceSaved } from './get-fleet-pages.ts';
import { adminUsersApi } from './get-users.ts';

/**
 * `contracts.adminDevice.devices` in the store: every device with its assigned user ids and codes,
 * fetched afresh each time Device Management opens.
 */
export const adminDevicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminDevices: build.query<AdminDevice[], void>({
      ...fromContract(
        contracts.adminDevice.devices,
        () => ({}),
        (response) => response.data.devices,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminDevicesQuery } = adminDevicesApi;

/**
 * A device the server has saved (added, edited, switched, new code) takes its place in the list
 * and in Device Management's cached pages.
 */
export const deviceSaved = (device: AdminDevice) => (dispatch: AppDispatch, getState: () => RootState) => {
  dispatch(
    adminDevicesApi.util.updateQueryData('adminDevices', undefined, (devices) => upsertById(devices, device)),
  );
  const users = adminUsersApi.endpoints.adminUsers.select(true)(getState()).data ?? [];
  dispatch(fleetDeviceSaved(device, new Map(users.map((u) => [u._id, u.username]))));
};

/** A device the server has deleted leaves the list and the cached pages. */
export const deviceRemoved = (_: unknown, id: string) => (dispatch: AppDispatch) => {
  dispatch(
    adminDevicesApi.util.updateQueryData('adminDevices', undefined, (devices) => removeById(devices, id)),
  );
  dispatch(fleetDeviceRemoved(id));
};
