import { ROLES, type Role } from '@vitalwatch/shared';
import { TextField } from '@/components/form-field.tsx';
import { SelectField } from '@/components/select-field.tsx';
import type { UserFormValues } from '../../utils/user-form.ts';

interface UserFieldsProps {
  values: UserFormValues;
  onChange: (values: UserFormValues) => void;
}

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Full Name, Username, Email and Role, shared by Add New User and Edit User. */
export function UserFields({ values, onChange }: UserFieldsProps) {
  const set = (key: Exclude<keyof UserFormValues, 'role'>) => (e: { target: { value: string } }) =>
    onChange({ ...values, [key]: e.target.value });
  return (
    <>
      <TextField
        label="Full Name"
        autoComplete="off"
        data-autofocus
        value={values.fullName}
        onChange={set('fullName')}
      />
      <TextField label="Username" autoComplete="off" value={values.username} onChange={set('username')} />
      <TextField label="Email" type="email" autoComplete="off" value={values.email} onChange={set('email')} />
      <SelectField
        label="Role"
        value={values.role}
        onChange={(e) => {
          if (isRole(e.target.value)) onChange({ ...values, role: e.target.value });
        }}
      >
        <option value="user">User</option>
        <option value="admin">Admin</option>
      </SelectField>
    </>
  );
}
