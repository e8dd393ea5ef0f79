import { type PublicUser, type TotpSetup, VALIDATION } from '@vitalwatch/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { FormActions } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import { TextField } from '@/components/form-field.tsx';
import { KeyIcon } from '@/components/icons.tsx';
import {
  RecoveryCodesPanel,
  readTwoFactorCode,
  TotpSetupPanel,
  TwoFactorCodeField,
} from '@/components/two-factor.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  startTwoFactorSetup,
} from '../api/two-factor.ts';

/** What the section shows: its summary, or one of the forms of a change. */
type Step =
  | { kind: 'summary' }
  | { kind: 'password' }
  | { kind: 'scan'; setup: TotpSetup }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' }
  | { kind: 'renew' };

const FAILED = 'Failed to update two-factor sign-in';

/**
 * Two-factor sign-in: set up with an authenticator app (the password again, a QR code, the first
 * code), recovery codes shown once, new ones on request, and off again with the password and a code.
 */
export function TwoFactorSection({ user }: { user: PublicUser }) {
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<Step>({ kind: 'summary' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<{ password?: string; code?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const go = (next: Step) => {
    setStep(next);
    setPassword('');
    setCode('');
    setFieldError({});
    setFailure(null);
  };
  const toSummary = () => go({ kind: 'summary' });

  /** Runs a change; a refusal shows in the form and as a toast. */
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      const reason = errorMessage(error, FAILED);
      setFailure(reason);
      toast.error(reason);
    } finally {
      setBusy(false);
    }
  };

  const readCode = (): string | null => {
    const read = readTwoFactorCode(code);
    if ('error' in read) {
      setFieldError((f) => ({ ...f, code: read.error }));
      return null;
    }
    return read.code;
  };
  const readPassword = (): string | null => {
    if (password === '') {
      setFieldError((f) => ({ ...f, password: VALIDATION.passwordRequired }));
      return null;
    }
    return password;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step.kind === 'password') {
      const pw = readPassword();
      if (pw) void attempt(async () => go({ kind: 'scan', setup: await startTwoFactorSetup(pw) }));
    } else if (step.kind === 'scan' || step.kind === 'renew') {
      const c = readCode();
      const call = step.kind === 'scan' ? enableTwoFactor : renewRecoveryCodes;
      if (c)
        void attempt(async () => {
          const { message, data } = await call(c);
          dispatch(loggedIn(data.user));
          toast.success(message);
          go({ kind: 'codes', codes: data.recoveryCodes });
        });
    } else if (step.kind === 'disable') {
      const pw = readPassword();
      const c = readCode();
      if (pw && c)
        void attempt(async () => {
          const { message, data } = await disableTwoFactor(pw, c);
          dispatch(loggedIn(data.user));
          toast.success(message);
          toSummary();
        });
    }
  };

  const passwordField = (
    <TextField
      label="Current Password"
      type="password"
      autoComplete="current-password"
      value={password}
      error={fieldError.password}
      onChange={(event) => {
        setPassword(event.target.value);
        setFieldError((f) => ({ ...f, password: undefined }));
      }}
    />
  );
  const codeField = (recovery: boolean) => (
    <TwoFactorCodeField
      recovery={recovery}
      value={code}
      error={fieldError.code}
      onChange={(event) => {
        setCode(event.target.value);
        setFieldError((f) => ({ ...f, code: undefined }));
      }}
    />
  );
  const form = (submitLabel: string, busyLabel: string, fields: ReactNode) => (
    <form noValidate onSubmit={submit} className="max-w-lg space-y-4">
      {fields}
      {failure && <FormError message={failure} />}
      <FormActions onCancel={toSummary} submitLabel={submitLabel} busyLabel={busyLabel} busy={busy} />
    </form>
  );

  const summaryAction =
    step.kind !== 'summary' ? null : user.twoFactorEnabled ? (
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => go({ kind: 'renew' })}>
          New Recovery Codes
        </Button>
        <Button variant="secondary" size="sm" onClick={() => go({ kind: 'disable' })}>
          Turn Off
        </Button>
      </div>
    ) : (
      <Button variant="secondary" size="sm" onClick={() => go({ kind: 'password' })}>
        <KeyIcon className="size-4" /> Set Up Two-Factor
      </Button>
    );

  return (
    <Card
      id="two-factor-title"
      title="Two-Factor Sign-In"
      description="Ask for a code from an authenticator app on your phone each time you sign in."
      action={summaryAction}
    >
      {step.kind === 'summary' && <Summary user={user} />}
      {step.kind === 'password' &&
        form(
          'Continue',
          'Checking...',
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">Enter your password to start.</p>
            {passwordField}
          </>,
        )}
      {step.kind === 'scan' &&
        form(
          'Turn On',
          'Turning on...',
          <>
            <TotpSetupPanel setup={step.setup} />
            {codeField(false)}
          </>,
        )}
      {step.kind === 'codes' && <RecoveryCodesPanel codes={step.codes} onDone={toSummary} />}
      {step.kind === 'renew' &&
        form(
          'Make New Codes',
          'Making codes...',
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Your current recovery codes stop working once the new ones are made.
            </p>
            {codeField(true)}
          </>,
        )}
      {step.kind === 'disable' &&
        form(
          'Turn Off',
          'Turning off...',
          <>
            {passwordField}
            {codeField(true)}
          </>,
        )}
    </Card>
  );
}

function Summary({ user }: { user: PublicUser }) {
  if (!user.twoFactorEnabled)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
        <KeyIcon className="size-4 shrink-0" />
        Off: your password alone signs you in.
      </p>
    );
  const low = user.recoveryCodesLeft <= 2;
  return (
    <div className="space-y-1 text-sm">
      <p className="flex items-center gap-2 font-medium text-teal-800 dark:text-teal-300">
        <KeyIcon className="size-4 shrink-0" />
        On: signing in asks for a code from your authenticator app.
      </p>
      <p className={low ? 'text-amber-800 dark:text-amber-300' : 'text-slate-600 dark:text-slate-400'}>
        {user.recoveryCodesLeft} recovery {user.recoveryCodesLeft === 1 ? 'code' : 'codes'} left
        {low ? ': make new ones before you run out.' : '.'}
      </p>
    </div>
  );
}
