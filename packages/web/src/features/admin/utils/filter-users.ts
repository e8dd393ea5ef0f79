import type { AdminUser } from '@vitalwatch/shared';

type Searchable = Pick<AdminUser, 'fullName' | 'username' | 'email' | 'role'>;

/**
 * The users whose name (full name or username), email or role contains the query, ignoring case
 * and surrounding spaces; an empty query keeps everyone.
 */
export function filterUsers<T extends Searchable>(users: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...users];
  return users.filter((u) =>
    [u.fullName, u.username, u.email, u.role].some((field) => field.toLowerCase().includes(needle)),
  );
}
