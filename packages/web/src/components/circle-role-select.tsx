import { CIRCLE_ROLE_LABELS, CIRCLE_ROLES, type CircleRole } from '@vitalwatch/shared';

export const circleSelectClass =
  'rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/** A care-circle role (owner, carer, viewer), labelled for screen readers by `label`. */
export function CircleRoleSelect(props: {
  label: string;
  value: CircleRole;
  onChange: (role: CircleRole) => void;
  disabled?: boolean;
}) {
  return (
    <select
      aria-label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={(event) => props.onChange(CIRCLE_ROLES.find((r) => r === event.target.value) ?? 'carer')}
      className={circleSelectClass}
    >
      {CIRCLE_ROLES.map((role) => (
        <option key={role} value={role}>
          {CIRCLE_ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  );
}
