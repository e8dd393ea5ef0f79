import {
  ALERT_STATUSES,
  type AlertLifecycle,
  type AlertRecord,
  BOARD_REPLAY_MS,
  type BoardSnapshot,
  type HealthRecord,
} from '@vitalwatch/shared';

/** A live change of the board, as the socket delivered it. */
export type BoardLiveEvent =
  | { kind: 'board'; records: readonly HealthRecord[] }
  | { kind: 'alerts'; alerts: readonly AlertRecord[] }
  | { kind: 'lifecycle'; change: AlertLifecycle };

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

const rank = (status: AlertLifecycle['status']) => ALERT_STATUSES.indexOf(status);

/**
 * An acknowledged alert keeps its place with its new state; a resolved one leaves the tile. A
 * change never takes an alert back (acknowledged → active), whichever came first.
 */
function withLifecycle(board: BoardSnapshot, change: AlertLifecycle): void {
  const d = board.devices.find((x) => x._id === change.device);
  if (!d) return;
  d.alerts = d.alerts
    .map((a) => (a._id === change._id && rank(change.status) >= rank(a.status) ? { ...a, ...change } : a))
    .filter((a) => a.status !== 'resolved');
}

/** Applies one live change to the board (an immer draft, or a snapshot being received). */
export function applyLive(board: BoardSnapshot, event: BoardLiveEvent): void {
  if (event.kind === 'board') withReadings(board, event.records);
  else if (event.kind === 'alerts') withAlerts(board, event.alerts);
  else withLifecycle(board, event.change);
}

/**
 * The live changes the board received on its current socket connection in the last
 * `BOARD_REPLAY_MS`, replayed onto every snapshot it receives: a snapshot built (or reused by the
 * server, up to a second old) before a change arrived would otherwise undo it, and a carer would
 * see an alert they just resolved come back.
 *
 * Every change is replayed, not only those after the snapshot's `at`: each one is idempotent and
 * never goes back (a reading older than the tile's is skipped, an alert already there is not added
 * twice, a lifecycle change never lowers a status), so replaying one the snapshot already holds
 * changes nothing, and no comparison of the server's clock with this one is needed. Cleared when
 * the socket (re)connects and when a board opens: a change missed while the socket was down (an
 * alert resolved) would leave its earlier changes (the alert raised) to be replayed alone, and the
 * snapshot fetched then (`after` the connection) holds all of them.
 */
class LiveReplay {
  private events: { receivedAt: number; event: BoardLiveEvent }[] = [];

  record(event: BoardLiveEvent, now = Date.now()): void {
    this.prune(now);
    this.events.push({ receivedAt: now, event });
  }

  clear(): void {
    this.events = [];
  }

  /** The snapshot with the changes received since it was (likely) built, in the order they came. */
  onto(board: BoardSnapshot, now = Date.now()): BoardSnapshot {
    this.prune(now);
    for (const { event } of this.events) applyLive(board, event);
    return board;
  }

  private prune(now: number): void {
    const keepFrom = this.events.findIndex((e) => now - e.receivedAt <= BOARD_REPLAY_MS);
    this.events = keepFrom === -1 ? [] : this.events.slice(keepFrom);
  }
}

/** The one board's replay (a tab shows one board at a time). */
export const boardReplay = new LiveReplay();
