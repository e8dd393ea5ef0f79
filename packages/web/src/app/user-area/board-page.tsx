import { type AlertRecord, BOARD_MESSAGES } from '@vitalwatch/shared';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { UsersIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { AlertActions } from '@/features/alerts/components/alert-actions.tsx';
import { BoardFilterBar, BoardSummary } from '@/features/board/components/board-controls.tsx';
import { BoardTile } from '@/features/board/components/board-tile.tsx';
import { BoardTileList } from '@/features/board/components/board-tile-list.tsx';
import { useBoard } from '@/features/board/hooks/use-board.ts';
import { useUrgentAnnouncement } from '@/features/board/hooks/use-urgent-announcement.ts';
import { applyFilters, countByGroup, NO_FILTERS, triage } from '@/features/board/utils/triage.ts';
import { PATHS } from '@/lib/paths.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useNow } from '@/lib/use-now.ts';
import { BoardWall } from './board-wall.tsx';
import { useTemperatureUnit } from './use-temperature-unit.ts';

/** The alert buttons of a tile: one function for every render, so unchanged tiles are not drawn again. */
const alertActions = (alert: AlertRecord) => <AlertActions alert={alert} />;

/** Ages (stale after 2 min, offline after 15) are judged again this often. */
const TICK_MS = 5000;

/**
 * The care team's board (/dashboard/board): one tile per device the user may see, most urgent
 * first; `?wall=1` is the wall display for a nurses' station.
 */
export function BoardPage() {
  const query = useBoard();
  const state = queryView(query, BOARD_MESSAGES.fetchFailed);
  const now = useNow(TICK_MS).getTime();
  const unit = useTemperatureUnit();
  const [params] = useSearchParams();
  const [filters, setFilters] = useState(NO_FILTERS);
  const devices = query.data?.devices;
  const triaged = useMemo(() => triage(devices ?? [], now), [devices, now]);
  const shown = useMemo(() => applyFilters(triaged, filters), [triaged, filters]);
  const { announcement, soundingId } = useUrgentAnnouncement(devices);

  if (params.get('wall') === '1') {
    return (
      <BoardWall
        items={triaged}
        counts={countByGroup(triaged)}
        now={now}
        unit={unit}
        soundingId={soundingId}
        announcement={announcement}
      />
    );
  }
  return (
    <div className="mx-auto w-full max-w-screen-2xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Board · VitalWatch</title>
      <PageHeader
        title="Board"
        subtitle="Everyone you care for at a glance, the most urgent first"
        actions={
          <Link to={`${PATHS.board}?wall=1`} className={buttonClasses('secondary')}>
            Wall display
          </Link>
        }
      />
      <p className="sr-only" aria-live="polite" data-testid="board-announcement">
        {announcement}
      </p>
      {state.status === 'loading' && (
        <LoadingRegion label="Loading the board">
          <Skeleton className="h-40 w-full" />
        </LoadingRegion>
      )}
      {state.status === 'error' && (
        <ErrorState title={BOARD_MESSAGES.fetchFailed} message={state.message} onRetry={query.refetch} />
      )}
      {state.status === 'ready' && state.data.devices.length === 0 && (
        <EmptyState icon={<UsersIcon className="size-10" />} title="No devices to show yet" />
      )}
      {state.status === 'ready' && state.data.devices.length > 0 && (
        <div className="space-y-4">
          <BoardSummary counts={countByGroup(triaged)} />
          <BoardFilterBar filters={filters} teams={state.data.teams} onChange={setFilters} />
          {shown.length === 0 && (
            <p className="text-slate-700 dark:text-slate-300">No device matches these filters.</p>
          )}
          <BoardTileList
            items={shown}
            className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4"
            tile={(item) => <BoardTile item={item} now={now} unit={unit} alertActions={alertActions} />}
          />
        </div>
      )}
    </div>
  );
}
