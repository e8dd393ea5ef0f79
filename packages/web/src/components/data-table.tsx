import type { ReactNode } from 'react';
import { Skeleton } from './status-panels.tsx';

interface DataTableProps {
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly string[];
  children: ReactNode;
  busy?: boolean;
}

/**
 * A bordered table. Under the `sm` breakpoint each row becomes a card of labelled lines (see
 * `Cell`), so a phone shows every column, actions included, without sideways scrolling.
 */
export function DataTable({ caption, columns, children, busy }: DataTableProps) {
  return (
    <div className="overflow-x-auto rounded-2xl max-sm:overflow-visible border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm max-sm:block sm:min-w-[44rem]" aria-busy={busy || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="max-sm:hidden bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/60 dark:text-slate-300">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-4 py-3 whitespace-nowrap">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 max-sm:block dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

/** `rows` placeholder rows with one grey bar per column, while the list loads. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return Array.from({ length: rows }, (_, r) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
    <tr key={r} data-testid="skeleton-row" className={row}>
      {Array.from({ length: columns }, (_, c) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity.
        <td key={c} className="px-4 py-4 max-sm:block max-sm:px-0 max-sm:py-1.5">
          <Skeleton className={c === 0 ? 'h-9 w-40' : 'h-4 w-20'} />
        </td>
      ))}
    </tr>
  ));
}

/** A body row; a card on phones. */
export const row = 'hover:bg-slate-50 max-sm:block max-sm:px-4 max-sm:py-3 dark:hover:bg-slate-800/40';

interface CellProps {
  /** The column's name, shown before the value on phones; none for the row's headline cell. */
  label?: string;
  className?: string;
  title?: string;
  children: ReactNode;
}

/** A body cell: a column on wide screens, a "label  value" line on phones. */
export function Cell({ label, className = '', title, children }: CellProps) {
  const phone = label
    ? 'max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-4 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:tracking-wide max-sm:before:text-slate-500 max-sm:before:uppercase max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-slate-400'
    : 'max-sm:block';
  return (
    <td
      data-label={label}
      title={title}
      className={`px-4 py-3 align-middle text-slate-700 max-sm:px-0 max-sm:py-1.5 dark:text-slate-300 ${phone} ${className}`}
    >
      {children}
    </td>
  );
}
