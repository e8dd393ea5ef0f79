import { type AdminUser, VALIDATION } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import { Modal } from '@/components/modal.tsx';
import { canResetPassword, EMPTY_PASSWORDS, passwordsMatch } from '../../utils/user-form.ts';
import { PasswordFields } from './password-fields.tsx';

interface ResetPasswordModalProps {
  user: AdminUser;
  onClose: () => void;
  /** Sends the new password; the page closes this modal afterwards, whatever the outcome. */
  onSubmit: (newPassword: string) => Promise<void>;
}

/** 'Reset Password' for one user; the server then ends that user's sessions. */
export function ResetPasswordModal({ user, onClose, onSubmit }: ResetPasswordModalProps) {
  const [passwords, setPasswords] = useState(EMPTY_PASSWORDS);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canResetPassword(passwords) || busy) return;
    if (!passwordsMatch(passwords)) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    await onSubmit(passwords.password);
  };

  return (
    <Modal
      open
      title="Reset Password"
      description={`Resetting password for ${user.fullName} (${user.email})`}
      onClose={busy ? () => {} : onClose}
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <PasswordFields
          label="New Password"
          autoFocus
          values={passwords}
          onChange={(p) => {
            setPasswords(p);
            setMismatch(false);
          }}
        />
        {mismatch && <FormError message={VALIDATION.adminPasswordsMismatch} />}
        <FormActions
          className="pt-2"
          onCancel={onClose}
          submitLabel="Reset Password"
          busyLabel="Resetting..."
          busy={busy}
          disabled={!canResetPassword(passwords)}
        />
      </form>
    </Modal>
  );
}
