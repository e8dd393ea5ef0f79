import type { BoardSnapshot } from '@vitalwatch/shared';
import { useEffect, useRef, useState } from 'react';
import { useRealtimeEvent, watchBoard } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { boardApi, useBoardSnapshotQuery } from '../api/get-board-snapshot.ts';
import { applyLive, type BoardLiveEvent, boardReplay } from '../api/live-replay.ts';

/** Readings of a live batch applied (and drawn) in one task. */
const BATCH_SLICE = 40;

/**
 * The board's data: the snapshot, kept live by the coalesced `board` batches, new alerts and
 * lifecycle changes (each also kept to be replayed onto the next snapshot, see `boardReplay`);
 * fetched afresh, built after the connection, whenever the socket is (back) up, as anything sent
 * while it was down is lost.
 */
export function useBoard() {
  const [after, setAfter] = useState(() => new Date().toISOString());
  const query = useBoardSnapshotQuery({ after });
  const dispatch = useAppDispatch();
  const current = useRef(after);
  current.current = after;
  const live = (event: BoardLiveEvent) => {
    boardReplay.record(event);
    dispatch(
      boardApi.util.updateQueryData('boardSnapshot', { after: current.current }, (b: BoardSnapshot) =>
        applyLive(b, event),
      ),
    );
  };
  useEffect(() => {
    boardReplay.clear();
    return watchBoard();
  }, []);
  useRealtimeEvent('board', (records) => {
    // A second's batch is applied a slice at a time, each slice in a task of its own: only the
    // slice's tiles are drawn again, so no one task draws the whole board.
    for (let i = 0; i < records.length; i += BATCH_SLICE)
      setTimeout(() => live({ kind: 'board', records: records.slice(i, i + BATCH_SLICE) }), 0);
  });
  useRealtimeEvent('alerts', (alerts) => live({ kind: 'alerts', alerts }));
  useRealtimeEvent('lifecycle', (change) => live({ kind: 'lifecycle', change }));
  useRealtimeEvent('connected', () => {
    boardReplay.clear();
    // A new time even within the same millisecond: the snapshot is fetched again.
    setAfter((prev) => new Date(Math.max(Date.now(), Date.parse(prev) + 1)).toISOString());
  });
  return query;
}
