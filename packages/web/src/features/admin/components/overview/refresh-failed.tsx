/** A quiet line under data whose last background refresh failed. */
export function RefreshFailed({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="status" className="mt-3 text-xs text-amber-700 dark:text-amber-300">
      Could not refresh: {message}. Showing the last figures.
    </p>
  );
}
