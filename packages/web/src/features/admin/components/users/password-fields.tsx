import { TextField } from '@/components/form-field.tsx';
import type { PasswordPair } from '../../utils/user-form.ts';

interface PasswordFieldsProps {
  values: PasswordPair;
  onChange: (values: PasswordPair) => void;
  /** 'Password' when adding a user, 'New Password' when resetting one. */
  label: string;
  autoFocus?: boolean;
}

/** A password and its confirmation; browsers are asked not to fill in the admin's own password. */
export function PasswordFields({ values, onChange, label, autoFocus }: PasswordFieldsProps) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        autoComplete="new-password"
        data-autofocus={autoFocus || undefined}
        value={values.password}
        onChange={(e) => onChange({ ...values, password: e.target.value })}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        onChange={(e) => onChange({ ...values, confirm: e.target.value })}
      />
    </>
  );
}
