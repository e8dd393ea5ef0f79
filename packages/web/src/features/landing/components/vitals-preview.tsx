const VITALS = [
  { label: 'Heart Rate', value: '72', unit: 'BPM', pct: 30, bar: 'bg-red-500' },
  { label: 'SpO2', value: '98', unit: '%', pct: 80, bar: 'bg-sky-500' },
  { label: 'Temperature', value: '97.8', unit: '°F', pct: 82, bar: 'bg-amber-500' },
  { label: 'Battery', value: '86', unit: '%', pct: 86, bar: 'bg-emerald-500' },
] as const;

/** An illustration of the dashboard with made-up values, hidden from assistive technology. */
export function VitalsPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="absolute -inset-4 rounded-3xl bg-teal-500/10 blur-2xl dark:bg-teal-400/10" />
      <div className="relative rounded-2xl border border-slate-200 bg-white p-5 shadow-2xl shadow-teal-900/10 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex items-center justify-between">
          <div>
            <p className="text-sm font-semibold text-slate-900 dark:text-white">Grandma's Wristband</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">Updated just now</p>
          </div>
          <span className="rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-semibold text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
            Device Online
          </span>
        </div>
        <div className="mt-5 grid grid-cols-2 gap-3">
          {VITALS.map((v) => (
            <div key={v.label} className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800/70">
              <p className="text-xs text-slate-500 dark:text-slate-400">{v.label}</p>
              <p className="mt-1 text-xl font-bold text-slate-900 dark:text-white">
                {v.value}{' '}
                <span className="text-sm font-medium text-slate-500 dark:text-slate-400">{v.unit}</span>
              </p>
              <div className="mt-2 h-1.5 rounded-full bg-slate-200 dark:bg-slate-700">
                <div className={`h-1.5 rounded-full ${v.bar}`} style={{ width: `${v.pct}%` }} />
              </div>
            </div>
          ))}
        </div>
        <svg
          aria-hidden="true"
          viewBox="0 0 300 60"
          className="mt-5 h-16 w-full text-teal-600 dark:text-teal-400"
        >
          <polyline
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinejoin="round"
            points="0,35 40,35 55,35 65,15 75,50 85,30 120,33 160,33 175,33 185,10 195,52 205,30 240,34 300,34"
          />
        </svg>
      </div>
    </div>
  );
}
