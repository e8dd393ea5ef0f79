import { type TestReading, testReadingResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/**
 * POST /admin/test-reading/:id: the server stores one normal reading for the device as if the
 * device had sent it (alarms, carers' live views and trends see it too).
 */
export const sendTestReadingApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendTestReading: build.mutation<TestReading, string>({
      query: (id) => ({
        path: `/admin/test-reading/${encodeURIComponent(id)}`,
        auth: 'admin',
        schema: testReadingResponse,
      }),
      transformResponse: (response: z.infer<typeof testReadingResponse>) => response.data.reading,
    }),
  }),
});

export const { useSendTestReadingMutation } = sendTestReadingApi;
