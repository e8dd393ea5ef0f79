import { BOARD_MESSAGES, boardResponse, boardSnapshotQuery } from '../schemas/board.ts';
import { defineContracts } from './contract.ts';

/** `/api/v1/board/*`: the care team's board (an admin, assigned nothing, gets an empty one). */
export const boardContracts = defineContracts('/board', 'signed-in', {
  snapshot: {
    method: 'GET',
    path: '/snapshot',
    summary: "The care team's board: every visible device's newest reading, last hour and open alerts",
    query: boardSnapshotQuery,
    response: boardResponse,
    message: BOARD_MESSAGES.fetched,
  },
});
