import { TRIAGE_GROUP_OF, type TriageGroup } from '@vitalwatch/shared';
import { SearchBox } from '@/components/search-box.tsx';
import { type BoardFilters, TRIAGE_GROUP_LABELS } from '../utils/triage.ts';

const GROUPS = [...new Set(Object.values(TRIAGE_GROUP_OF))];

/** "3 need attention · 2 offline or stale · 25 normal": the counts before any filter. */
export function BoardSummary({
  counts,
  large = false,
}: {
  counts: Record<TriageGroup, number>;
  large?: boolean;
}) {
  return (
    <p
      data-testid="board-summary"
      className={`font-semibold text-slate-900 dark:text-slate-50 ${large ? 'text-3xl' : 'text-base'}`}
    >
      {GROUPS.filter((g) => g === 'attention' || g === 'normal' || counts[g] > 0)
        .map((g) => `${counts[g]} ${TRIAGE_GROUP_LABELS[g]}`)
        .join(' · ')}
    </p>
  );
}

interface BoardFilterBarProps {
  filters: BoardFilters;
  teams: readonly { _id: string; name: string }[];
  onChange: (next: BoardFilters) => void;
}

const SELECT =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/** Filter by team, by state and by name. */
export function BoardFilterBar({ filters, teams, onChange }: BoardFilterBarProps) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <SearchBox
        label="Filter by name"
        placeholder="Filter by name…"
        value={filters.name}
        onChange={(name) => onChange({ ...filters, name })}
      />
      {teams.length > 0 && (
        <select
          aria-label="Filter by team"
          className={SELECT}
          value={filters.teamId}
          onChange={(e) => onChange({ ...filters, teamId: e.target.value })}
        >
          <option value="all">All teams</option>
          {teams.map((t) => (
            <option key={t._id} value={t._id}>
              {t.name}
            </option>
          ))}
        </select>
      )}
      <select
        aria-label="Filter by state"
        className={SELECT}
        value={filters.group}
        onChange={(e) => onChange({ ...filters, group: e.target.value as BoardFilters['group'] })}
      >
        <option value="all">All states</option>
        {GROUPS.map((g) => (
          <option key={g} value={g}>
            {TRIAGE_GROUP_LABELS[g][0]!.toUpperCase() + TRIAGE_GROUP_LABELS[g].slice(1)}
          </option>
        ))}
      </select>
    </div>
  );
}
