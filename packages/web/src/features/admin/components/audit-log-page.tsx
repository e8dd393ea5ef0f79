import {
  ADMIN_ERRORS,
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  type AuditPage,
  SKELETON_ROWS,
} from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { DataTable, SkeletonRows } from '@/components/data-table.tsx';
import { KeyIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { type AuditFilters, useAuditLogQuery } from '../api/get-audit-log.ts';
import { AUDIT_COLUMNS, AuditRow } from './audit/audit-rows.tsx';

const selectClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/** `yyyy-mm-dd` of a date input as the start (or the end) of that day in the browser's time zone. */
const dayBound = (day: string, end: boolean) =>
  day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : undefined;

/** Audit Log (/admin-dashboard/audit): who did what security-relevant thing, newest first, filtered. */
export function AuditLogPage() {
  const [filters, setFilters] = useState<AuditFilters>({});
  // Each "Show older" adds the cursor of the page before it: every page is its own cached query.
  const [cursors, setCursors] = useState<string[]>([]);
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    setFilters({
      action: text('action'),
      outcome: text('outcome'),
      actor: text('actor'),
      from: dayBound(text('from') ?? '', false),
      to: dayBound(text('to') ?? '', true),
    });
    setCursors([]);
  };

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Audit Log · VitalWatch</title>
      <PageHeader
        title="Audit Log"
        subtitle="Sign-ins, account and device changes, acknowledgements: newest first"
      />
      <form
        onSubmit={apply}
        aria-label="Filter the audit log"
        className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
      >
        <label className="space-y-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
          <span>Action</span>
          <select name="action" className={selectClass} defaultValue="">
            <option value="">All actions</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
          <span>Outcome</span>
          <select name="outcome" className={selectClass} defaultValue="">
            <option value="">Any outcome</option>
            {AUDIT_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o === 'success' ? 'Succeeded' : 'Failed'}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
          <span>Who (username)</span>
          <input name="actor" maxLength={64} className={selectClass} autoComplete="off" />
        </label>
        <label className="space-y-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
          <span>From</span>
          <input name="from" type="date" className={selectClass} />
        </label>
        <label className="space-y-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
          <span>To</span>
          <input name="to" type="date" className={selectClass} />
        </label>
        <Button type="submit">Apply filters</Button>
      </form>
      <AuditPages filters={filters} cursors={cursors} onOlder={(next) => setCursors((c) => [...c, next])} />
    </div>
  );
}

interface AuditPagesProps {
  filters: AuditFilters;
  cursors: string[];
  onOlder: (nextBefore: string) => void;
}

/** The first page and every older page asked for, in one table. */
function AuditPages({ filters, cursors, onOlder }: AuditPagesProps) {
  const first = useAuditLogQuery(filters);
  if (first.isError) {
    return (
      <ErrorState
        title={ADMIN_ERRORS.auditFetchFailed}
        message={errorMessage(asApiError(first.error), ADMIN_ERRORS.auditFetchFailed)}
        onRetry={() => void first.refetch()}
      />
    );
  }
  if (!first.data) {
    return (
      <>
        <p role="status" className="sr-only">
          Loading the audit log
        </p>
        <DataTable caption="Audit log" columns={AUDIT_COLUMNS} busy>
          <SkeletonRows rows={SKELETON_ROWS} columns={AUDIT_COLUMNS.length} />
        </DataTable>
      </>
    );
  }
  if (first.data.entries.length === 0) {
    return (
      <EmptyState
        icon={<KeyIcon className="size-10" />}
        title="No audit entries found"
        hint="Nothing recorded matches these filters"
      />
    );
  }
  return (
    <>
      <p role="status" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        {`${first.data.total ?? first.data.entries.length} entries found`}
      </p>
      <DataTable caption="Audit log" columns={AUDIT_COLUMNS}>
        <Rows page={first.data} />
        {cursors.map((before) => (
          <OlderRows key={before} filters={filters} before={before} />
        ))}
      </DataTable>
      <OlderButton filters={filters} cursors={cursors} firstNext={first.data.nextBefore} onOlder={onOlder} />
    </>
  );
}

const Rows = ({ page }: { page: AuditPage }) =>
  page.entries.map((entry) => <AuditRow key={entry.id} entry={entry} />);

function OlderRows({ filters, before }: { filters: AuditFilters; before: string }) {
  const { data } = useAuditLogQuery({ ...filters, before });
  return data ? <Rows page={data} /> : null;
}

/** "Show older entries" while there are any: the cursor of the last page loaded. */
function OlderButton({
  filters,
  cursors,
  firstNext,
  onOlder,
}: AuditPagesProps & { firstNext: string | null }) {
  const lastCursor = cursors.at(-1);
  const last = useAuditLogQuery({ ...filters, before: lastCursor ?? '' }, { skip: lastCursor === undefined });
  const next = lastCursor === undefined ? firstNext : (last.data?.nextBefore ?? null);
  if (!next) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="secondary" onClick={() => onOlder(next)} disabled={last.isFetching}>
        Show older entries
      </Button>
    </div>
  );
}
