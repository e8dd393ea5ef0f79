import type { AdminUser } from '@vitalwatch/shared';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import type { UserActions } from '../../hooks/use-user-actions.ts';
import { AddUserModal } from './add-user-modal.tsx';
import { EditUserModal } from './edit-user-modal.tsx';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import { UserDetailsModal } from './user-details-modal.tsx';
import type { UserAction } from './users-table.tsx';

/** Which modal is open, and for whom; null when none. */
export type UserModal = { kind: 'add' } | { kind: UserAction; user: AdminUser } | null;

interface UserModalsProps {
  modal: UserModal;
  onClose: () => void;
  actions: UserActions;
}

/**
 * The one open modal of the user screen. Each form mounts fresh when opened, so closing or
 * cancelling leaves nothing behind (empty fields, role user, no passwords).
 */
export function UserModals({ modal, onClose, actions }: UserModalsProps) {
  if (modal === null) return null;
  switch (modal.kind) {
    case 'add':
      return <AddUserModal onClose={onClose} onSubmit={actions.add} />;
    case 'edit':
      return (
        <EditUserModal
          user={modal.user}
          onClose={onClose}
          onSubmit={(input) => actions.edit(modal.user._id, input)}
        />
      );
    case 'reset':
      return (
        <ResetPasswordModal
          user={modal.user}
          onClose={onClose}
          onSubmit={(password) => actions.reset(modal.user._id, password)}
        />
      );
    case 'details':
      return <UserDetailsModal user={modal.user} onClose={onClose} />;
    case 'delete':
      return (
        <ConfirmDialog
          open
          title={`Delete ${modal.user.fullName}`}
          message="Are you sure you want to delete this user?"
          confirmLabel="Delete User"
          busyLabel="Deleting..."
          busy={actions.deleting}
          danger
          onConfirm={() => actions.remove(modal.user._id)}
          onCancel={onClose}
        />
      );
  }
}
