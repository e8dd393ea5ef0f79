import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
}

/** The title block at the top of every signed-in page; tighter on a phone, where the content matters first. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between compact:mb-3 compact:gap-2">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white compact:text-xl">
          {title}
        </h1>
        {subtitle && (
          <p className="mt-1 text-slate-600 dark:text-slate-400 compact:mt-0 compact:text-sm">{subtitle}</p>
        )}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
