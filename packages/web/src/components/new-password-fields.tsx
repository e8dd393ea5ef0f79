import { VALIDATION } from '@vitalwatch/shared';
import { TextField } from './form-field.tsx';

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPassword: (event: { target: { value: string } }) => void;
  onConfirm: (event: { target: { value: string } }) => void;
  /** What is wrong with the new password as typed (e.g. the same as the current one). */
  passwordError?: string;
}

/** "New Password" with the strong-password hint and "Confirm New Password" saying a mismatch as you type. */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  passwordError,
}: NewPasswordFieldsProps) {
  const mismatch = confirm !== '' && confirm !== password;
  return (
    <>
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint={VALIDATION.passwordHint}
        error={passwordError}
        value={password}
        onChange={onPassword}
      />
      <TextField
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        error={mismatch ? VALIDATION.passwordsMismatch : undefined}
        value={confirm}
        onChange={onConfirm}
      />
    </>
  );
}
