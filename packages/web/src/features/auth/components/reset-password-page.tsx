import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/button.tsx';
import { FormError } from '@/components/form-error.tsx';
import { NewPasswordFields } from '@/components/new-password-fields.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { SuccessPanel } from '@/components/success-panel.tsx';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import { PATHS } from '@/lib/paths.ts';
import { linkStatus, resetPassword } from '../api/account-links.ts';
import { AuthCard, authLinkClass } from './auth-card.tsx';
import { LinkProblem } from './link-problem.tsx';

type LinkState = 'checking' | 'valid' | 'expired' | 'used' | 'invalid' | 'done';
const FAILED = 'Could not change the password. Please try again.';
const AGAIN = { to: PATHS.forgotPassword, label: 'Send me a new link' };

/** The state a refused reset names (410 LINK_EXPIRED / LINK_USED), else null. */
const refusedState = (error: unknown): LinkState | null => {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'LINK_EXPIRED') return 'expired';
  if (error.code === 'LINK_USED') return 'used';
  return null;
};

/** Choose a new password from a mailed link (/reset-password?token=…). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<LinkState>(token ? 'checking' : 'invalid');
  const [values, setValues] = useState({ newPassword: '', cnfPassword: '' });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    linkStatus(token, 'reset').then(setState, () => setState('valid'));
  }, [token]);

  const mismatch = values.cnfPassword !== '' && values.cnfPassword !== values.newPassword;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await resetPassword(token, values.newPassword, values.cnfPassword);
      setState('done');
    } catch (error) {
      const refused = refusedState(error);
      if (refused) setState(refused);
      else setFailure((error instanceof ApiError && error.issues[0]?.message) || errorMessage(error, FAILED));
    } finally {
      setBusy(false);
    }
  };
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setFailure(null);
  };

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="Setting it signs you out on every device."
      footer={
        <Link to={PATHS.signin} className={authLinkClass}>
          Back to sign in
        </Link>
      }
    >
      {state === 'checking' && (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      )}
      {(state === 'expired' || state === 'used' || state === 'invalid') && (
        <LinkProblem state={state} again={AGAIN} />
      )}
      {state === 'done' && (
        <SuccessPanel
          title="Password changed"
          action={
            <Link to={PATHS.signin} className={authLinkClass}>
              Sign in
            </Link>
          }
        >
          Your password has been changed. Sign in with the new one.
        </SuccessPanel>
      )}
      {state === 'valid' && (
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <NewPasswordFields
            password={values.newPassword}
            confirm={values.cnfPassword}
            onPassword={set('newPassword')}
            onConfirm={set('cnfPassword')}
          />
          {failure && <FormError message={failure} />}
          <Button
            type="submit"
            className="w-full"
            disabled={busy || mismatch || values.newPassword === '' || values.cnfPassword === ''}
          >
            {busy ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
