import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { deviceSaved } from './get-devices.ts';

/** POST /admin/change-validity/:id: an inactive device can neither ingest nor be added by a user. */
export const changeValidityApi = api.injectEndpoints({
  endpoints: (build) => ({
    changeValidity: build.mutation<AdminDevice, { id: string; isValid: boolean }>({
      query: ({ id, isValid }) => ({
        path: `/admin/change-validity/${encodeURIComponent(id)}`,
        body: { isValid },
        auth: 'admin',
        schema: adminDeviceResponse,
      }),
      transformResponse: (response: z.infer<typeof adminDeviceResponse>) => response.data.device,
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useChangeValidityMutation } = changeValidityApi;
