interface SpinnerProps {
  className?: string;
}

export function Spinner({ className = 'size-5' }: SpinnerProps) {
  return (
    <svg className={`animate-spin ${className}`} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle className="opacity-25" cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" />
      <path className="opacity-90" fill="currentColor" d="M4 12a8 8 0 0 1 8-8v4a4 4 0 0 0-4 4H4z" />
    </svg>
  );
}

interface FullScreenSpinnerProps {
  /** What is being waited for, read by screen readers and shown under the spinner. */
  label: string;
  showLabel?: boolean;
}

/** Covers the whole viewport: the guard's short pause and the session check. */
export function FullScreenSpinner({ label, showLabel = false }: FullScreenSpinnerProps) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-slate-50 text-teal-700 dark:bg-slate-950 dark:text-teal-400"
    >
      <Spinner className="size-10" />
      <span className={showLabel ? 'text-sm text-slate-600 dark:text-slate-300' : 'sr-only'}>{label}</span>
    </div>
  );
}
