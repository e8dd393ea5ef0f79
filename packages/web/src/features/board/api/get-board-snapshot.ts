import { type BoardSnapshot, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.board.snapshot`: every device the user may see, with newest reading, last hour and open alerts. */
export const boardApi = api.injectEndpoints({
  endpoints: (build) => ({
    boardSnapshot: build.query<BoardSnapshot, void>({
      ...fromContract(
        contracts.board.snapshot,
        () => ({}),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useBoardSnapshotQuery } = boardApi;
