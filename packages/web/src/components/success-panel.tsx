import type { ReactNode } from 'react';
import { CheckCircleIcon } from './icons.tsx';

interface SuccessPanelProps {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}

/** The clear confirmation that replaces a form once it has been submitted. */
export function SuccessPanel({ title, children, action }: SuccessPanelProps) {
  return (
    <div
      role="status"
      className="rounded-2xl border border-emerald-200 bg-emerald-50 p-6 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100"
    >
      <div className="flex items-start gap-3">
        <CheckCircleIcon className="mt-0.5 size-6 shrink-0 text-emerald-600 dark:text-emerald-400" />
        <div className="space-y-2">
          <h3 className="text-lg font-semibold">{title}</h3>
          <div className="text-sm">{children}</div>
          {action && <div className="pt-2">{action}</div>}
        </div>
      </div>
    </div>
  );
}
