import type { AdminUser } from '@vitalwatch/shared';
import { Cell, row } from '@/components/data-table.tsx';
import { IconButton } from '@/components/icon-button.tsx';
import { EyeIcon, KeyIcon, PencilIcon, TrashIcon } from '@/components/icons.tsx';
import { formatDateTime } from '@/lib/format-date.ts';
import { RoleBadge } from './role-badge.tsx';

export const USER_COLUMNS = ['User', 'Role', 'Browser Connections', 'Created', 'Actions'] as const;

export type UserAction = 'details' | 'edit' | 'reset' | 'delete';

interface UserRowProps {
  user: AdminUser;
  /** The signed-in admin's own row cannot be deleted. */
  isSelf: boolean;
  onAction: (action: UserAction, user: AdminUser) => void;
}

/** One user: name and email, role badge, connected browsers, creation date and the four actions. */
export function UserRow({ user, isSelf, onAction }: UserRowProps) {
  return (
    <tr className={row}>
      <Cell>
        <p className="font-medium text-slate-900 dark:text-white">{user.fullName}</p>
        <p className="break-all text-slate-500 dark:text-slate-400">{user.email}</p>
      </Cell>
      <Cell label="Role">
        <RoleBadge role={user.role} />
      </Cell>
      <Cell
        label="Browser Connections"
        className="whitespace-nowrap"
      >{`${user.fcmTokens.length} connected`}</Cell>
      <Cell label="Created" className="whitespace-nowrap">
        {formatDateTime(user.createdAt)}
      </Cell>
      <Cell label="Actions">
        <div className="flex gap-1">
          <IconButton
            label="View Details"
            icon={<EyeIcon className="size-4" />}
            onClick={() => onAction('details', user)}
          />
          <IconButton
            label="Edit User"
            icon={<PencilIcon className="size-4" />}
            onClick={() => onAction('edit', user)}
          />
          <IconButton
            label="Reset Password"
            icon={<KeyIcon className="size-4" />}
            onClick={() => onAction('reset', user)}
          />
          <IconButton
            label="Delete User"
            tone="danger"
            icon={<TrashIcon className="size-4" />}
            disabled={isSelf}
            title={isSelf ? 'You cannot delete your own account' : undefined}
            onClick={() => onAction('delete', user)}
          />
        </div>
      </Cell>
    </tr>
  );
}
