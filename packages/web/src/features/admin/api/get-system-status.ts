import { type SystemStatus, systemStatusResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /admin/system-status in the store: the platform's components, each checked now. */
export const systemStatusApi = api.injectEndpoints({
  endpoints: (build) => ({
    systemStatus: build.query<SystemStatus, void>({
      query: () => ({ path: '/admin/system-status', auth: 'admin', schema: systemStatusResponse }),
      transformResponse: (response: z.infer<typeof systemStatusResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSystemStatusQuery } = systemStatusApi;
