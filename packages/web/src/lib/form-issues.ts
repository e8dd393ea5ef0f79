import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-error.ts';

/**
 * Shows the server's per-field issues (paths like `user.username`) under the matching inputs.
 * Returns whether any were shown.
 */
export function applyServerIssues<T extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError)) return false;
  let shown = false;
  for (const issue of error.issues) {
    const field = fields.find((f) => issue.path === f || issue.path.endsWith(`.${f}`));
    if (field) {
      setError(field, { type: 'server', message: issue.message });
      shown = true;
    }
  }
  return shown;
}
