import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '@/components/spinner.tsx';
import { SuccessPanel } from '@/components/success-panel.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { PATHS } from '@/lib/paths.ts';
import { verifyEmail } from '../api/account-links.ts';
import { AuthCard, authLinkClass } from './auth-card.tsx';
import { LinkProblem } from './link-problem.tsx';

type State = 'checking' | 'done' | 'expired' | 'used' | 'invalid';
/** A new link is sent from Profile (signed in: the address is the account's). */
const AGAIN = { to: PATHS.profile, label: 'Send a new link from your profile' };

/** Proves the address of a mailed link (/verify-email?token=…) as soon as it opens. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(token ? 'checking' : 'invalid');
  const asked = useRef(false);

  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    verifyEmail(token).then(
      () => setState('done'),
      (error: unknown) => {
        const code = error instanceof ApiError ? error.code : '';
        setState(code === 'LINK_EXPIRED' ? 'expired' : code === 'LINK_USED' ? 'used' : 'invalid');
      },
    );
  }, [token]);

  return (
    <AuthCard
      title="Verify your e-mail"
      subtitle="Alert e-mails go only to a verified address."
      footer={
        <Link to={PATHS.signin} className={authLinkClass}>
          Go to sign in
        </Link>
      }
    >
      {state === 'checking' && (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      )}
      {state === 'done' && (
        <SuccessPanel title="Address verified">Your e-mail address is verified.</SuccessPanel>
      )}
      {(state === 'expired' || state === 'used' || state === 'invalid') && (
        <LinkProblem state={state} again={AGAIN} />
      )}
    </AuthCard>
  );
}
