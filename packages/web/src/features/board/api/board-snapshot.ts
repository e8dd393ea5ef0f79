import { type BoardSnapshot, boardResponse, tileOf } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** GET /board/snapshot: every device the user may see, with newest reading, last hour and open alerts. */
export const boardApi = api.injectEndpoints({
  endpoints: (build) => ({
    boardSnapshot: build.query<BoardSnapshot, void>({
      query: () => ({ path: '/board/snapshot', method: 'GET', auth: 'user', schema: boardResponse }),
      // Each tile arrives without what is at its usual value: the screens get it whole.
      transformResponse: ({ data }: z.infer<typeof boardResponse>): BoardSnapshot => ({
        ...data,
        devices: data.devices.map(tileOf),
      }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useBoardSnapshotQuery } = boardApi;
