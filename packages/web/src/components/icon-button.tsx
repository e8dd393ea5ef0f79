import type { ComponentProps, ReactNode } from 'react';

const tones = {
  neutral:
    'text-slate-500 hover:bg-slate-100 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100',
  danger:
    'text-slate-500 hover:bg-red-50 hover:text-red-700 dark:text-slate-400 dark:hover:bg-red-950/60 dark:hover:text-red-300',
} as const;

interface IconButtonProps extends Omit<ComponentProps<'button'>, 'aria-label'> {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  icon: ReactNode;
  tone?: keyof typeof tones;
}

/** A square icon-only action whose name is read aloud and shown on hover. */
export function IconButton({
  label,
  icon,
  tone = 'neutral',
  className = '',
  title,
  ...rest
}: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={title ?? label}
      className={`inline-flex size-9 items-center justify-center rounded-lg transition-colors focus-visible:outline-2 focus-visible:outline-teal-600 disabled:cursor-not-allowed disabled:opacity-40 dark:focus-visible:outline-teal-400 ${tones[tone]} ${className}`}
      {...rest}
    >
      {icon}
    </button>
  );
}
