import type { AlertLifecycle, AlertRecord, BoardSnapshot, HealthRecord } from '@vitalwatch/shared';
import { useEffect } from 'react';
import { useRealtimeEvent, watchBoard } from '@/lib/socket.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { boardApi, useBoardSnapshotQuery } from '../api/get-board-snapshot.ts';

/** The newest record of each device becomes its tile's reading and the end of its sparkline. */
function withReadings(board: BoardSnapshot, records: readonly HealthRecord[]): void {
  const byId = new Map(board.devices.map((d) => [d._id, d]));
  for (const r of records) {
    const d = byId.get(r.device);
    if (!d || (d.latest && d.latest.createdAt > r.createdAt)) continue;
    d.latest = r;
    if (r.heartRate !== null) d.sparkline[d.sparkline.length - 1] = Math.round(r.heartRate);
  }
}

function withAlerts(board: BoardSnapshot, alerts: readonly AlertRecord[]): void {
  for (const a of alerts) {
    const d = board.devices.find((x) => x._id === a.device);
    if (d && !d.alerts.some((x) => x._id === a._id)) d.alerts.unshift(a);
  }
}

/** An acknowledged alert keeps its place with its new state; a resolved one leaves the tile. */
function withLifecycle(board: BoardSnapshot, change: AlertLifecycle): void {
  const d = board.devices.find((x) => x._id === change.device);
  if (!d) return;
  d.alerts = d.alerts
    .map((a) => (a._id === change._id ? { ...a, ...change } : a))
    .filter((a) => a.status !== 'resolved');
}

/**
 * The board's data: the snapshot, kept live by the coalesced `board` batches, new alerts and
 * lifecycle changes; fetched afresh whenever the socket is (back) up, as anything sent while it
 * was down is lost.
 */
export function useBoard() {
  const query = useBoardSnapshotQuery();
  const dispatch = useAppDispatch();
  const update = (change: (board: BoardSnapshot) => void) =>
    dispatch(boardApi.util.updateQueryData('boardSnapshot', undefined, change));
  useEffect(() => watchBoard(), []);
  useRealtimeEvent('board', (records) => update((b) => withReadings(b, records)));
  useRealtimeEvent('alerts', (alerts) => update((b) => withAlerts(b, alerts)));
  useRealtimeEvent('lifecycle', (change) => update((b) => withLifecycle(b, change)));
  useRealtimeEvent('connected', () => void query.refetch());
  return query;
}
