interface LogoMarkProps {
  className?: string;
}

/** The VitalWatch mark: a heartbeat line inside a shield-like rounded square (also public/favicon.svg). */
export function LogoMark({ className = 'size-8' }: LogoMarkProps) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" className="fill-teal-700 dark:fill-teal-500" />
      <path
        d="M5 17h5l2.5-6 4 12 3-9 2 3H27"
        fill="none"
        stroke="white"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Mark and word mark; the accessible name comes from the visible text. */
export function Logo() {
  return (
    <span className="flex items-center gap-2">
      <LogoMark />
      <span className="text-lg font-bold tracking-tight text-slate-900 dark:text-white">
        Vital<span className="text-teal-700 dark:text-teal-400">Watch</span>
      </span>
    </span>
  );
}
