import type { AdminUser, EditUserInput } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '@/components/form-actions.tsx';
import { Modal } from '@/components/modal.tsx';
import { canUpdateUser, formFromUser, trimmedUser } from '../../utils/user-form.ts';
import { UserFields } from './user-fields.tsx';

interface EditUserModalProps {
  user: AdminUser;
  onClose: () => void;
  /** Sends the changes; the page closes this modal afterwards, whatever the outcome. */
  onSubmit: (input: EditUserInput) => Promise<void>;
}

/** 'Edit User', prefilled: Update User stays disabled while a name, the username or the email is empty. */
export function EditUserModal({ user, onClose, onSubmit }: EditUserModalProps) {
  const [values, setValues] = useState(() => formFromUser(user));
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canUpdateUser(values) || busy) return;
    setBusy(true);
    await onSubmit(trimmedUser(values));
  };

  return (
    <Modal open title="Edit User" onClose={busy ? () => {} : onClose}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <UserFields values={values} onChange={setValues} />
        <FormActions
          className="pt-2"
          onCancel={onClose}
          submitLabel="Update User"
          busyLabel="Updating..."
          busy={busy}
          disabled={!canUpdateUser(values)}
        />
      </form>
    </Modal>
  );
}
