import { ACCOUNT_MESSAGES } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { FormError } from '@/components/form-error.tsx';

/** What a mailed link that no longer works says, with the way to a new one. */
export function LinkProblem({
  state,
  again,
}: {
  state: 'expired' | 'used' | 'invalid';
  again: { to: string; label: string };
}) {
  const message = {
    expired: ACCOUNT_MESSAGES.linkExpired,
    used: ACCOUNT_MESSAGES.linkUsed,
    invalid: ACCOUNT_MESSAGES.linkInvalid,
  }[state];
  return (
    <div className="space-y-4">
      <FormError message={message} />
      <Link to={again.to} className={buttonClasses('primary', 'md', 'w-full')}>
        {again.label}
      </Link>
    </div>
  );
}
