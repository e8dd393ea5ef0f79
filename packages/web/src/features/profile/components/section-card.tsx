import type { ReactNode } from 'react';

interface SectionCardProps {
  id: string;
  title: string;
  description?: string;
  action?: ReactNode;
  children: ReactNode;
}

/** One titled block of the profile page. */
export function SectionCard({ id, title, description, action, children }: SectionCardProps) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={id} className="text-lg font-semibold text-slate-900 dark:text-white">
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

/** A read-only labelled value. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-slate-900 dark:text-slate-100">{value}</dd>
    </div>
  );
}
