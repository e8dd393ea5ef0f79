import type { AdminUser } from '@vitalwatch/shared';
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from 'react';
import { ChevronDownIcon } from '@/components/icons.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { useDismiss } from '@/components/use-dismiss.ts';
import type { QueryView } from '@/lib/store/query-view.ts';
import { assignedUsersLabel, usernamesOf } from '../../utils/assigned-users.ts';

interface UserMultiSelectProps {
  /** Role-user accounts (all-users with isUser): the only ones a device can be assigned to. */
  users: QueryView<AdminUser[]>;
  onRetry: () => void;
  selected: readonly string[];
  onChange: (ids: string[]) => void;
}

const FILTER_FROM = 8;

/**
 * 'Assign Users': a button whose label shows at most two usernames then '...', opening a list of
 * checkboxes (with a filter when the list is long). Escape or a click outside closes the list only.
 */
export function UserMultiSelect({ users, onRetry, selected, onChange }: UserMultiSelectProps) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const labelId = useId();
  const valueId = useId();
  const listId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  const list = users.status === 'ready' ? users.data : [];
  const names = useMemo(() => new Map(list.map((u) => [u._id, u.username])), [list]);
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? list.filter((u) => `${u.username} ${u.fullName}`.toLowerCase().includes(needle))
    : list;

  const toggle = (id: string) =>
    onChange(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape here closes the list and not the whole dialog.
    <div ref={root} className="space-y-1.5" onKeyDown={onKeyDown}>
      <span id={labelId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        Assign Users
      </span>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        aria-labelledby={`${labelId} ${valueId}`}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-left text-sm text-slate-900 shadow-sm focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:focus-visible:outline-teal-400"
      >
        <span
          id={valueId}
          className={`truncate ${selected.length === 0 ? 'text-slate-500 dark:text-slate-400' : ''}`}
        >
          {assignedUsersLabel(usernamesOf(selected, names))}
        </span>
        <ChevronDownIcon className={`size-4 shrink-0 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <div
          id={listId}
          className="rounded-lg border border-slate-200 bg-slate-50 p-2 dark:border-slate-700 dark:bg-slate-800/60"
        >
          {users.status === 'loading' && (
            <p role="status" className="flex items-center gap-2 p-2 text-sm text-slate-500">
              <Spinner className="size-4" /> Loading users
            </p>
          )}
          {users.status === 'error' && (
            <p role="alert" className="p-2 text-sm text-red-700 dark:text-red-300">
              {users.message}.{' '}
              <button type="button" className="font-semibold underline" onClick={onRetry}>
                Try again
              </button>
            </p>
          )}
          {users.status === 'ready' && list.length > FILTER_FROM && (
            <input
              type="search"
              aria-label="Filter users"
              placeholder="Filter users..."
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              className="mb-2 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
            />
          )}
          {users.status === 'ready' && shown.length === 0 && (
            <p className="p-2 text-sm text-slate-500 dark:text-slate-400">No users to assign</p>
          )}
          <fieldset className="max-h-48 overflow-y-auto">
            <legend className="sr-only">Users</legend>
            {shown.map((u) => (
              <label
                key={u._id}
                className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-white dark:hover:bg-slate-900"
              >
                <input
                  type="checkbox"
                  checked={selected.includes(u._id)}
                  onChange={() => toggle(u._id)}
                  className="size-4 accent-teal-700"
                />
                <span className="font-medium text-slate-900 dark:text-slate-100">{u.username}</span>
                <span className="truncate text-slate-500 dark:text-slate-400">{u.fullName}</span>
              </label>
            ))}
          </fieldset>
        </div>
      )}
    </div>
  );
}
