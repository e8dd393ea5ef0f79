import type { TemperatureUnit, TriageGroup } from '@vitalwatch/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/button.tsx';
import { BoardSummary } from '@/features/board/components/board-controls.tsx';
import { BoardTile } from '@/features/board/components/board-tile.tsx';
import { BoardTileList } from '@/features/board/components/board-tile-list.tsx';
import type { TriagedDevice } from '@/features/board/utils/triage.ts';
import { storeAlarmSoundSetting, unlockAlarmSound } from '@/lib/alarm-sound.ts';
import { formatClock } from '@/lib/format-date.ts';
import { PATHS } from '@/lib/paths.ts';
import { useRealtimeDownSince } from '@/lib/socket.ts';
import { useAlarmSound } from '@/lib/use-alarm-sound.ts';

interface BoardWallProps {
  items: readonly TriagedDevice[];
  counts: Record<TriageGroup, number>;
  now: number;
  unit: TemperatureUnit;
  /** The newest unacknowledged high-priority alert: the tone repeats while there is one. */
  soundingId: string | null;
  announcement: string;
}

/** Keeps the screen on while the page is shown (the lock ends when the tab is hidden, so it is taken again). */
function useWakeLock(on: boolean) {
  useEffect(() => {
    if (!on || !('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      navigator.wakeLock.request('screen').then(
        (l) => {
          lock = l;
        },
        () => undefined,
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      document.removeEventListener('visibilitychange', take);
      void lock?.release();
    };
  }, [on]);
}

/**
 * The wall display for a nurses' station: full screen, large type readable from a distance, no
 * buttons on the tiles. One click starts it (browsers allow sound and full screen only after one);
 * from then on a new high-priority alert sounds the IEC 60601-1-8 high-priority burst again and again
 * until someone acknowledges it anywhere, and a lost connection shows DATA NOT LIVE until the socket
 * (which never stops retrying) is back.
 */
export function BoardWall({ items, counts, now, unit, soundingId, announcement }: BoardWallProps) {
  const [started, setStarted] = useState(false);
  const downSince = useRealtimeDownSince();
  useWakeLock(started);
  useAlarmSound(started ? soundingId : null);

  const start = () => {
    storeAlarmSoundSetting(true);
    unlockAlarmSound();
    document.documentElement.requestFullscreen?.().catch(() => undefined);
    setStarted(true);
  };

  return (
    <div
      className="fixed inset-0 z-50 overflow-y-auto bg-slate-100 p-4 dark:bg-slate-950"
      data-testid="board-wall"
    >
      <title>Wall display · VitalWatch</title>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
        <BoardSummary counts={counts} large />
        <div className="flex items-center gap-4">
          <span className="text-3xl font-bold tabular-nums text-slate-900 dark:text-white">
            {formatClock(new Date(now).toISOString())}
          </span>
          <Link to={PATHS.board} className="text-lg underline text-slate-800 dark:text-slate-200">
            Leave wall display
          </Link>
        </div>
      </div>
      {downSince !== null && (
        <div
          role="alert"
          data-testid="data-not-live"
          className="mb-4 rounded-2xl border-4 border-amber-600 bg-amber-100 p-4 text-center text-4xl font-black text-amber-950 dark:bg-amber-950 dark:text-amber-50"
        >
          DATA NOT LIVE · since {formatClock(new Date(downSince).toISOString())} · reconnecting
        </div>
      )}
      {!started && (
        <div className="mb-4 flex justify-center">
          <Button size="lg" onClick={start}>
            Start wall display (full screen, sound on)
          </Button>
        </div>
      )}
      <BoardTileList
        items={items}
        className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3"
        tile={(item) => <BoardTile item={item} now={now} unit={unit} large />}
      />
    </div>
  );
}
