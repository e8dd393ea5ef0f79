import { type ReactNode, useId, useState } from 'react';

interface ChecklistProps<T> {
  legend: string;
  items: readonly T[];
  idOf: (item: T) => string;
  labelOf: (item: T) => string;
  selected: ReadonlySet<string>;
  onToggle: (id: string, checked: boolean) => void;
  /** Shown after a checked item's label (a member's role). */
  extra?: (item: T) => ReactNode;
}

/** A filterable list of checkboxes, for a team's devices and its users. */
export function Checklist<T>({ legend, items, idOf, labelOf, selected, onToggle, extra }: ChecklistProps<T>) {
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const needle = filter.trim().toLowerCase();
  const shown = needle ? items.filter((i) => labelOf(i).toLowerCase().includes(needle)) : items;
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">
        {legend} ({selected.size} chosen)
      </legend>
      <label htmlFor={filterId} className="sr-only">
        Filter {legend.toLowerCase()}
      </label>
      <input
        id={filterId}
        type="search"
        value={filter}
        placeholder="Filter…"
        onChange={(e) => setFilter(e.target.value)}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      />
      <ul className="max-h-48 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2 dark:border-slate-700">
        {shown.map((item) => {
          const id = idOf(item);
          return (
            <li key={id} className="flex items-center justify-between gap-2">
              <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
                <input
                  type="checkbox"
                  className="size-4 accent-teal-700"
                  checked={selected.has(id)}
                  onChange={(e) => onToggle(id, e.target.checked)}
                />
                {labelOf(item)}
              </label>
              {selected.has(id) && extra?.(item)}
            </li>
          );
        })}
        {shown.length === 0 && <li className="text-sm text-slate-600 dark:text-slate-400">None</li>}
      </ul>
    </fieldset>
  );
}
