interface ChartToggleProps {
  label: string;
  pressed: boolean;
  onChange: (pressed: boolean) => void;
}

/** A chip that adds something to the chart or changes how it is drawn (a toggle button). */
export function ChartToggle({ label, pressed, onChange }: ChartToggleProps) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={() => onChange(!pressed)}
      className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 ${
        pressed
          ? 'border-teal-700 bg-teal-700 text-white dark:border-teal-400 dark:bg-teal-500 dark:text-slate-950'
          : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
      }`}
    >
      <span aria-hidden="true">{pressed ? '✓' : '+'}</span>
      {label}
    </button>
  );
}
