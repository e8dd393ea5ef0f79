import type { Role } from '@vitalwatch/shared';

const ADMIN =
  'bg-purple-100 text-purple-800 ring-purple-200 dark:bg-purple-950 dark:text-purple-200 dark:ring-purple-800';
const OTHER =
  'bg-blue-100 text-blue-800 ring-blue-200 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-800';

/** The role's badge colours: admin purple, everyone else blue. */
export const roleBadgeClass = (role: Role): string => (role === 'admin' ? ADMIN : OTHER);

/** The capitalised role ("Admin", "User") in its badge. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${roleBadgeClass(role)}`}
    >
      {role.charAt(0).toUpperCase() + role.slice(1)}
    </span>
  );
}
