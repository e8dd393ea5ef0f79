import type { PublicUser } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { FormError } from '@/components/form-error.tsx';
import { TextField } from '@/components/form-field.tsx';
import { readTwoFactorCode, TwoFactorCodeField } from '@/components/two-factor.tsx';
import { endingSession } from '@/lib/api-client.ts';
import { errorMessage } from '@/lib/api-error.ts';
import { PATHS } from '@/lib/paths.ts';
import { loggedOut } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { clearTokens } from '@/lib/token-storage.ts';
import { closeAccount } from '../api/account.ts';
import { errorDetail } from '../utils/error-detail.ts';

/**
 * Profile → Close my account (GDPR article 17): the password, a code with two-factor on, then a
 * confirmation. Devices the user owns alone pass to their next carer.
 */
export function CloseAccountSection({ user }: { user: PublicUser }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (user.twoFactorEnabled) {
      const read = readTwoFactorCode(code);
      if ('error' in read) {
        setFailure(read.error);
        return;
      }
    }
    setAsking(true);
  };
  const close = async () => {
    setBusy(true);
    try {
      const typed = user.twoFactorEnabled ? code : undefined;
      const { message } = await endingSession(() => closeAccount(password, typed));
      clearTokens();
      dispatch(loggedOut());
      toast.success(message);
      void navigate(PATHS.home);
    } catch (error) {
      setFailure(errorDetail(error) ?? errorMessage(error, 'Failed to close the account'));
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      id="close-account-title"
      title="Close my account"
      description="Signs you out everywhere and deletes your account. This cannot be undone."
    >
      <form noValidate onSubmit={onSubmit} className="max-w-lg space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Your sessions, browsers, share links and care circle places go. Devices you own alone pass to their
          next carer. The audit log keeps its entries under your account id. We send you a confirmation
          e-mail.
        </p>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setFailure(null);
          }}
        />
        {user.twoFactorEnabled && (
          <TwoFactorCodeField
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setFailure(null);
            }}
          />
        )}
        {failure && <FormError message={failure} />}
        <Button type="submit" variant="danger" disabled={password === '' || busy}>
          Close my account
        </Button>
      </form>
      <ConfirmDialog
        open={asking}
        title="Close your account?"
        message="Your account and its sign-ins are deleted at once. This cannot be undone."
        confirmLabel="Close my account"
        busyLabel="Closing..."
        busy={busy}
        danger
        onConfirm={() => void close()}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}
