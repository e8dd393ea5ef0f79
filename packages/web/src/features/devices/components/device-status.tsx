interface BadgeProps {
  on: boolean;
  onText: string;
  offText: string;
}

/** A small pill with a dot: green when on, grey when off; the text says which. */
export function StatusBadge({ on, onText, offText }: BadgeProps) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        on
          ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300'
          : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
      }`}
    >
      <span
        aria-hidden="true"
        className={`size-1.5 rounded-full ${on ? 'bg-emerald-500' : 'bg-slate-400 dark:bg-slate-500'}`}
      />
      {on ? onText : offText}
    </span>
  );
}
