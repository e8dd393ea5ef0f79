import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { deviceSaved } from './get-devices.ts';

export type CodeType = 'activationCode' | 'apiAuthCode';

/** POST /admin/regenerate-code/:id?codeType=…: replaces one code; the old one stops working at once. */
export const regenerateCodeApi = api.injectEndpoints({
  endpoints: (build) => ({
    regenerateCode: build.mutation<AdminDevice, { id: string; codeType: CodeType }>({
      query: ({ id, codeType }) => ({
        path: `/admin/regenerate-code/${encodeURIComponent(id)}?codeType=${codeType}`,
        auth: 'admin',
        schema: adminDeviceResponse,
      }),
      transformResponse: (response: z.infer<typeof adminDeviceResponse>) => response.data.device,
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useRegenerateCodeMutation } = regenerateCodeApi;
