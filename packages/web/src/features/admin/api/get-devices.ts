import { type AdminDevice, adminDevicesResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';

/**
 * POST /admin/all-devices in the store: every device with its assigned user ids and codes,
 * fetched afresh each time Device Management opens.
 */
export const adminDevicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminDevices: build.query<AdminDevice[], void>({
      query: () => ({ path: '/admin/all-devices', auth: 'admin', schema: adminDevicesResponse }),
      transformResponse: (response: z.infer<typeof adminDevicesResponse>) => response.data.devices,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminDevicesQuery } = adminDevicesApi;

/** A device the server has saved (added, edited, switched, new code) takes its place in the list. */
export const deviceSaved = (device: AdminDevice) =>
  adminDevicesApi.util.updateQueryData('adminDevices', undefined, (devices) => upsertById(devices, device));

/** A device the server has deleted leaves the list. */
export const deviceRemoved = (_: unknown, id: string) =>
  adminDevicesApi.util.updateQueryData('adminDevices', undefined, (devices) => removeById(devices, id));
