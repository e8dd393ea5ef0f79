import {
  type SharedDevice,
  type SharedHistory,
  sharedDeviceResponse,
  sharedHistoryResponse,
} from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** What the shared page asks of the device's history: a window of time, as ISO instants. */
export interface SharedHistoryArgs {
  token: string;
  from: string;
  to: string;
}

/** A share link's public data in the store, without an account; fetched afresh on each visit. */
export const sharedDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /shared/:token: the device's name, until when, its newest reading. */
    sharedDevice: build.query<SharedDevice, string>({
      query: (token) => ({
        path: `/shared/${encodeURIComponent(token)}`,
        method: 'GET',
        auth: 'none',
        schema: sharedDeviceResponse,
      }),
      transformResponse: (response: z.infer<typeof sharedDeviceResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
    /** POST /shared/:token/history: the window's readings count and averages (the last 24 hours at most). */
    sharedHistory: build.query<SharedHistory, SharedHistoryArgs>({
      query: ({ token, from, to }) => ({
        path: `/shared/${encodeURIComponent(token)}/history`,
        body: { from, to },
        auth: 'none',
        schema: sharedHistoryResponse,
      }),
      transformResponse: (response: z.infer<typeof sharedHistoryResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSharedDeviceQuery, useSharedHistoryQuery } = sharedDeviceApi;
