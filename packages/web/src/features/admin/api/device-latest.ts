import { type AdminDeviceLatest, adminDeviceLatestResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /admin/device-latest/:id: the device's newest reading (or null) and where MQTT listens. */
export const deviceLatestApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminDeviceLatest: build.query<AdminDeviceLatest, string>({
      query: (id) => ({
        path: `/admin/device-latest/${encodeURIComponent(id)}`,
        auth: 'admin',
        schema: adminDeviceLatestResponse,
      }),
      transformResponse: (response: z.infer<typeof adminDeviceLatestResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminDeviceLatestQuery } = deviceLatestApi;
