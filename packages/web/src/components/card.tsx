import type { ReactNode } from 'react';

interface CardProps {
  title: string;
  /** The heading's id, which names the region for screen readers; by default made from the title. */
  id?: string;
  /** A line under the title. */
  description?: string;
  /** Right of the title: a badge or a small action. */
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A titled panel (admin overview, profile sections); the title names the region for screen readers. */
export function Card({ title, id, description, action, children, className = '' }: CardProps) {
  const headingId = id ?? `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
