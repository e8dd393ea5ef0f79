import { CHANNEL_HEALTH } from '@vitalwatch/shared';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Switch } from '@/components/switch.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedIn, selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppDispatch, useAppSelector } from '@/lib/store/hooks.ts';
import { setChannelChecks } from '../api/set-channel-checks.ts';

/**
 * The daily check of a browser that has shown nothing for a day (channel health): on by default;
 * off, a browser that stopped receiving is never found out.
 */
export function ChannelChecksToggle() {
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const labelId = useId();
  if (!user) return null;
  const on = user.channelChecks;

  const toggle = async () => {
    setBusy(true);
    try {
      const result = await setChannelChecks(!on);
      dispatch(loggedIn(result.user));
      toast.success(result.message);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update daily checks'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-4 flex items-center justify-between gap-4 border-t border-slate-100 pt-4 dark:border-slate-800">
      <p id={labelId} className="text-sm text-slate-700 dark:text-slate-300">
        Send a brief daily check to a browser that has shown no notification for{' '}
        {CHANNEL_HEALTH.STALE_AFTER_HOURS} hours, so a browser that stopped receiving is found
      </p>
      <Switch checked={on} labelledBy={labelId} disabled={busy} onChange={() => void toggle()} />
    </div>
  );
}
