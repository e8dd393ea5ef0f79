import { type AdminUser, TOASTS } from '@vitalwatch/shared';
import type { ReactNode } from 'react';
import { Button } from '@/components/button.tsx';
import { CopyIcon } from '@/components/icons.tsx';
import { Modal } from '@/components/modal.tsx';
import { formatDateTime } from '@/lib/format-date.ts';
import { copyWithToast } from '../../utils/copy.ts';
import { TeamNames } from '../teams/team-names.tsx';
import { RoleBadge } from './role-badge.tsx';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {label}
      </dt>
      <dd className="mt-0.5 break-words text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

function TokenList({ tokens }: { tokens: readonly string[] }) {
  if (tokens.length === 0) {
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400">No browser is connected for notifications.</p>
    );
  }
  return (
    <ul aria-label="Token ids" className="max-h-48 space-y-2 overflow-y-auto pr-1">
      {tokens.map((token) => (
        <li
          key={token}
          className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60"
        >
          <code
            className="min-w-0 truncate font-mono text-xs text-slate-700 dark:text-slate-300"
            title={token}
          >
            {token}
          </code>
          <Button
            variant="secondary"
            size="sm"
            aria-label={`Copy token ${token}`}
            onClick={() => copyWithToast(token, TOASTS.tokenCopied)}
          >
            <CopyIcon className="size-4" />
            Copy
          </Button>
        </li>
      ))}
    </ul>
  );
}

interface UserDetailsModalProps {
  user: AdminUser;
  onClose: () => void;
}

/** 'User Details', read only: who the user is, the browsers connected for push, when created and changed. */
export function UserDetailsModal({ user, onClose }: UserDetailsModalProps) {
  return (
    <Modal open title="User Details" onClose={onClose} size="max-w-lg">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Detail label="Full Name">{user.fullName}</Detail>
        <Detail label="Username">{user.username}</Detail>
        <Detail label="Role">
          <RoleBadge role={user.role} />
        </Detail>
        <Detail label="Email">{user.email}</Detail>
        <Detail label="Connected Devices">{user.fcmTokens.length}</Detail>
        <Detail label="Assigned Devices">{user.devicesCount}</Detail>
        <div className="sm:col-span-2">
          <dt className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
            Browser tokens
          </dt>
          <dd>
            <TokenList tokens={user.fcmTokens} />
          </dd>
        </div>
        <Detail label="Care Teams">
          <TeamNames userId={user._id} />
        </Detail>
        <Detail label="Created">{formatDateTime(user.createdAt)}</Detail>
        <Detail label="Last Updated">{formatDateTime(user.updatedAt)}</Detail>
      </dl>
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={onClose} data-autofocus>
          Close
        </Button>
      </div>
    </Modal>
  );
}
