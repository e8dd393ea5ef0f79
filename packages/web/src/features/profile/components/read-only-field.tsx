/** A read-only labelled value. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-slate-900 dark:text-slate-100">{value}</dd>
    </div>
  );
}
