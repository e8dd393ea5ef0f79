/** Active (green) or Inactive (grey), in words. */
export function ValidityBadge({ isValid }: { isValid: boolean }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${
        isValid
          ? 'bg-green-100 text-green-800 ring-green-200 dark:bg-green-950 dark:text-green-200 dark:ring-green-800'
          : 'bg-slate-100 text-slate-700 ring-slate-200 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700'
      }`}
    >
      {isValid ? 'Active' : 'Inactive'}
    </span>
  );
}
