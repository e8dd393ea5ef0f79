import { type AddUserInput, VALIDATION } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import { Modal } from '@/components/modal.tsx';
import {
  canAddUser,
  EMPTY_PASSWORDS,
  EMPTY_USER_FORM,
  passwordsMatch,
  trimmedUser,
} from '../../utils/user-form.ts';
import { PasswordFields } from './password-fields.tsx';
import { UserFields } from './user-fields.tsx';

interface AddUserModalProps {
  onClose: () => void;
  /** Sends the new user; the page closes this modal afterwards, whatever the outcome. */
  onSubmit: (input: AddUserInput) => Promise<void>;
}

/** 'Add New User': Add User stays disabled until every field is filled in. */
export function AddUserModal({ onClose, onSubmit }: AddUserModalProps) {
  const [values, setValues] = useState(EMPTY_USER_FORM);
  const [passwords, setPasswords] = useState(EMPTY_PASSWORDS);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canAddUser(values, passwords) || busy) return;
    if (!passwordsMatch(passwords)) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    await onSubmit({ ...trimmedUser(values), password: passwords.password });
  };

  return (
    <Modal open title="Add New User" onClose={busy ? () => {} : onClose}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <UserFields values={values} onChange={setValues} />
        <PasswordFields
          label="Password"
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
          submitLabel="Add User"
          busyLabel="Adding..."
          busy={busy}
          disabled={!canAddUser(values, passwords)}
        />
      </form>
    </Modal>
  );
}
