import { type SnoozeRecord, snoozesResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';

/** POST /alert/snoozes in the store: the caller's snoozes still running, soonest to end first. */
export const snoozesApi = api.injectEndpoints({
  endpoints: (build) => ({
    snoozes: build.query<SnoozeRecord[], void>({
      query: () => ({ path: '/alert/snoozes', schema: snoozesResponse }),
      transformResponse: (response: z.infer<typeof snoozesResponse>) => response.data.snoozes,
      keepUnusedDataFor: 0,
    }),
  }),
});

/** POST /alert/unsnooze: ends one snooze now; answers those left, which the list then shows. */
export const endSnoozeApi = api.injectEndpoints({
  endpoints: (build) => ({
    endSnooze: build.mutation<SnoozeRecord[], Pick<SnoozeRecord, 'device' | 'alertType'>>({
      query: (s) => ({
        path: '/alert/unsnooze',
        body: { deviceId: s.device, alertType: s.alertType },
        schema: snoozesResponse,
      }),
      transformResponse: (response: z.infer<typeof snoozesResponse>) => response.data.snoozes,
      onQueryStarted: onSuccess((left: SnoozeRecord[]) =>
        snoozesApi.util.updateQueryData('snoozes', undefined, () => left),
      ),
    }),
  }),
});

export const { useSnoozesQuery } = snoozesApi;
export const { useEndSnoozeMutation } = endSnoozeApi;
