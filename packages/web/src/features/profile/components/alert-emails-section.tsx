import type { PublicUser } from '@vitalwatch/shared';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { setAlertEmails } from '../api/set-alert-emails.ts';
import { SectionCard } from './section-card.tsx';

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
    <SectionCard id="alert-emails-title" title="Alert Emails">
      <div className="flex items-center justify-between gap-4">
        <p id={labelId} className="text-sm text-slate-700 dark:text-slate-300">
          Email me about every new alert from my devices ({user.email})
        </p>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby={labelId}
          disabled={busy}
          onClick={() => void toggle()}
          className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${
            on ? 'bg-teal-700 dark:bg-teal-500' : 'bg-slate-300 dark:bg-slate-600'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
              on ? 'translate-x-5.5' : 'translate-x-0.5'
            }`}
          />
        </button>
      </div>
    </SectionCard>
  );
}
