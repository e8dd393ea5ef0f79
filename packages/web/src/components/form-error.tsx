import { AlertTriangleIcon } from './icons.tsx';

/** Why the last submit failed, announced, inside the form it belongs to. */
export function FormError({ message }: { message: string }) {
  return (
    <p
      role="alert"
      className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200"
    >
      <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}
