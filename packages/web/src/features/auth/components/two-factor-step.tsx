import { ERRORS, type SignedIn, TWO_FACTOR_MESSAGES, type TwoFactorChallenge } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { SubmitButton } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import {
  RecoveryCodesPanel,
  readTwoFactorCode,
  TotpSetupPanel,
  TwoFactorCodeField,
} from '@/components/two-factor.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { logInSecondStep } from '../api/log-in.ts';

interface TwoFactorStepProps {
  challenge: TwoFactorChallenge['twoFactor'];
  /** Signed in: the session and the server's message. */
  onSignedIn: (session: SignedIn, message: string) => void;
  /** Back to the password (a challenge that expired, another account). */
  onBack: () => void;
}

/**
 * The second step of a sign-in: a code from the authenticator app (or a recovery code); for an
 * admin who must set it up first, the QR code to scan, then the recovery codes to save.
 */
export function TwoFactorStep({ challenge, onSignedIn, onBack }: TwoFactorStepProps) {
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<{ session: SignedIn; message: string } | null>(null);
  const setup = challenge.mode === 'setup' ? challenge.setup : undefined;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readTwoFactorCode(value);
    if ('error' in read) {
      setFieldError(read.error);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const { message, data } = await logInSecondStep(challenge.challengeToken, read.code);
      if (data.recoveryCodes) setSaved({ session: data, message });
      else onSignedIn(data, message);
    } catch (error) {
      const reason = errorMessage(error, ERRORS.loginFailed);
      setFailure(reason);
      toast.error(reason);
      setValue('');
    } finally {
      setBusy(false);
    }
  };

  if (saved?.session.recoveryCodes)
    return (
      <RecoveryCodesPanel
        codes={saved.session.recoveryCodes}
        onDone={() => onSignedIn(saved.session, saved.message)}
      />
    );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {setup ? TWO_FACTOR_MESSAGES.setupNeeded : TWO_FACTOR_MESSAGES.codeNeeded}.
      </p>
      {setup && <TotpSetupPanel setup={setup} />}
      <TwoFactorCodeField
        recovery={!setup}
        autoFocus
        value={value}
        error={fieldError}
        onChange={(event) => {
          setValue(event.target.value);
          setFieldError(undefined);
        }}
      />
      {failure && <FormError message={failure} />}
      <SubmitButton size="lg" className="w-full" busy={busy} label="Verify" busyLabel="Verifying..." />
      <Button variant="ghost" className="w-full" onClick={onBack} disabled={busy}>
        Back to login
      </Button>
    </form>
  );
}
