import { AUDIT_ACTIONS, type AuditEntry, auditDetailName } from '@vitalwatch/shared';
import { Cell, row } from '@/components/data-table.tsx';
import { formatDateTime } from '@/lib/format-date.ts';

export const AUDIT_COLUMNS = ['Time', 'Action', 'Outcome', 'Who', 'On', 'Address', 'Details'] as const;

const detailText = (detail: AuditEntry['detail']) =>
  Object.entries(detail)
    .map(([key, value]) => `${auditDetailName(key)}: ${value === '' ? '—' : String(value)}`)
    .join(', ');

/** What the entry is about: its name (the id on hover and under it), or its id when it is gone. */
function Target({ entry }: { entry: AuditEntry }) {
  if (!entry.targetType) return '—';
  const id = entry.targetId ?? '';
  if (entry.targetName === null) {
    return <span className="break-all">{`${entry.targetType} ${id}`}</span>;
  }
  return (
    <span title={`${entry.targetType} ${id}`}>
      <span className="font-medium text-slate-900 dark:text-white">{entry.targetName}</span>
      <span className="block break-all text-xs text-slate-600 dark:text-slate-400">
        {entry.targetType} {id}
      </span>
    </span>
  );
}

/** One audit entry; a failure is marked in words and colour, never by colour alone. */
export function AuditRow({ entry }: { entry: AuditEntry }) {
  const failed = entry.outcome === 'failure';
  return (
    <tr className={row}>
      <Cell className="whitespace-nowrap font-medium text-slate-900 dark:text-white">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </Cell>
      <Cell label="Action">{AUDIT_ACTIONS[entry.action]}</Cell>
      <Cell label="Outcome">
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
            failed
              ? 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200'
              : 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
          }`}
        >
          {failed ? 'Failed' : 'Succeeded'}
        </span>
      </Cell>
      <Cell label="Who" className="break-all">
        {entry.actorName ?? '—'}
      </Cell>
      <Cell label="On">
        <Target entry={entry} />
      </Cell>
      <Cell label="Address">{entry.ip ?? '—'}</Cell>
      <Cell label="Details" className="break-words">
        {detailText(entry.detail) || '—'}
      </Cell>
    </tr>
  );
}
