import type { ReactNode } from 'react';

interface CardProps {
  title: string;
  subtitle?: string;
  /** Right of the title: a badge or a small action. */
  aside?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A titled panel of the admin overview; the title names the region for screen readers. */
export function Card({ title, subtitle, aside, children, className = '' }: CardProps) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <div className="mb-4 flex items-start justify-between gap-3">
        <div>
          <h2 id={id} className="text-lg font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          {subtitle && <p className="text-sm text-slate-500 dark:text-slate-400">{subtitle}</p>}
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** A quiet line under data whose last background refresh failed. */
export function RefreshFailed({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="status" className="mt-3 text-xs text-amber-700 dark:text-amber-300">
      Could not refresh: {message}. Showing the last figures.
    </p>
  );
}
