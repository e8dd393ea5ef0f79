import type { PublicUser } from '@vitalwatch/shared';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Card } from '@/components/card.tsx';
import { Switch } from '@/components/switch.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { setAlertEmails } from '../api/set-alert-emails.ts';

/** Opt in to an email for every new alert (server route /user/alert-emails). */
export function AlertEmailsSection({ user }: { user: PublicUser }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const labelId = useId();
  const on = user.alertEmails;

  const toggle = async () => {
    setBusy(true);
    try {
      const result = await setAlertEmails(!on);
      dispatch(loggedIn(result.user));
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update alert emails'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="alert-emails-title" title="Alert Emails">
      <div className="flex items-center justify-between gap-4">
        <p id={labelId} className="text-sm text-slate-700 dark:text-slate-300">
          Email me about every new alert from my devices ({user.email})
        </p>
        <Switch checked={on} labelledBy={labelId} disabled={busy} onChange={() => void toggle()} />
      </div>
    </Card>
  );
}
