import { type BoardSnapshot, contracts, tileOf } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.board.snapshot`: every device the user may see, with newest reading, last hour and open alerts. */
export const boardApi = api.injectEndpoints({
  endpoints: (build) => ({
    boardSnapshot: build.query<BoardSnapshot, void>({
      ...fromContract(
        contracts.board.snapshot,
        () => ({}),
        // Each tile arrives without what is at its usual value: the screens get it whole.
        ({ data }): BoardSnapshot => ({ ...data, devices: data.devices.map(tileOf) }),
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useBoardSnapshotQuery } = boardApi;
