import { type ComponentProps, useId } from 'react';

interface SelectFieldProps extends ComponentProps<'select'> {
  label: string;
}

/** A labelled native select, styled like the text fields. */
export function SelectField({ label, id, children, ...rest }: SelectFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <div className="space-y-1.5">
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <select
        id={fieldId}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-teal-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:focus:outline-teal-400"
        {...rest}
      >
        {children}
      </select>
    </div>
  );
}
