import { type BoardSnapshot, type BoardSnapshotQuery, contracts, tileOf } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { boardReplay } from './live-replay.ts';

/**
 * `contracts.board.snapshot`: every device the user may see, with newest reading, last hour and
 * open alerts; `after`, when the board's socket (re)connected: nothing built before it. The live
 * changes received meanwhile are replayed onto it before anyone sees it.
 */
export const boardApi = api.injectEndpoints({
  endpoints: (build) => ({
    boardSnapshot: build.query<BoardSnapshot, BoardSnapshotQuery>({
      ...fromContract(
        contracts.board.snapshot,
        (query: BoardSnapshotQuery) => ({ query }),
        // Each tile arrives without what is at its usual value: the screens get it whole.
        ({ data }): BoardSnapshot => boardReplay.onto({ ...data, devices: data.devices.map(tileOf) }),
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useBoardSnapshotQuery } = boardApi;
