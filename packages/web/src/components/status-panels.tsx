import { CONNECTION_MESSAGES } from '@vitalwatch/shared';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { AlertTriangleIcon } from './icons.tsx';

interface SkeletonProps {
  className?: string;
}

/** A grey placeholder block with the size of what is loading, so the page does not jump. */
export function Skeleton({ className = 'h-4 w-full' }: SkeletonProps) {
  return (
    <div
      aria-hidden="true"
      className={`animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800 ${className}`}
    />
  );
}

/** Announces a loading region to screen readers while its skeletons show. */
export function LoadingRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}

interface ErrorStateProps {
  title: string;
  message?: string;
  onRetry: () => void;
}

/** A failed load: what failed, why if known, and a way to try again. */
export function ErrorState({ title, message, onRetry }: ErrorStateProps) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-6 text-center dark:border-red-900 dark:bg-red-950/40"
    >
      <AlertTriangleIcon className="size-8 text-red-600 dark:text-red-400" />
      <p className="font-semibold text-red-900 dark:text-red-100">{title}</p>
      {message && message !== title && <p className="text-sm text-red-800 dark:text-red-200">{message}</p>}
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  hint?: string;
  action?: ReactNode;
}

/** Nothing to show yet: a title, a hint and usually the action that fixes it. */
export function EmptyState({ icon, title, hint, action }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-700 dark:bg-slate-900">
      {icon && <div className="text-slate-400 dark:text-slate-500">{icon}</div>}
      <p className="text-lg font-semibold text-slate-900 dark:text-white">{title}</p>
      {hint && <p className="max-w-md text-sm text-slate-600 dark:text-slate-400">{hint}</p>}
      {action && <div className="pt-2">{action}</div>}
    </div>
  );
}

/**
 * The server could not be reached when the app started: the stored session is kept (this is not
 * a sign-out) and the app tries again by itself and on "Try again".
 */
export function ServerUnreachable({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6 dark:bg-slate-950">
      <div className="max-w-md">
        <ErrorState
          title={CONNECTION_MESSAGES.unreachableTitle}
          message={CONNECTION_MESSAGES.unreachableHint}
          onRetry={onRetry}
        />
      </div>
    </main>
  );
}
