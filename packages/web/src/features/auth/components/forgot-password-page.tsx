import { emailField } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/button.tsx';
import { FormError } from '@/components/form-error.tsx';
import { TextField } from '@/components/form-field.tsx';
import { SuccessPanel } from '@/components/success-panel.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { PATHS } from '@/lib/paths.ts';
import { forgotPassword } from '../api/account-links.ts';
import { AuthCard, authLinkClass } from './auth-card.tsx';

const FAILED = 'Could not send the link. Please try again.';

/** Forgot password (/forgot-password): one field; the answer never says whether an account has the address. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = emailField.safeParse(email);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      setSent((await forgotPassword(checked.data)).message);
    } catch (err) {
      setFailure(errorMessage(err, FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Forgot password"
      subtitle="We will e-mail you a link to choose a new password."
      footer={
        <Link to={PATHS.signin} className={authLinkClass}>
          Back to sign in
        </Link>
      }
    >
      {sent ? (
        <SuccessPanel title="Check your e-mail">{sent}</SuccessPanel>
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            error={error ?? undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
          />
          {failure && <FormError message={failure} />}
          <Button type="submit" className="w-full" disabled={busy || email.trim() === ''}>
            {busy ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
