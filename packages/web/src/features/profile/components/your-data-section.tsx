import type { PublicUser } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { saveDownload } from '@/lib/save-download.ts';
import { downloadMyData, sendVerification } from '../api/account.ts';

/**
 * Profile → Your data: one ZIP of everything VitalWatch holds about the user (GDPR articles 15
 * and 20), and, while the address is unproved, the way to a new verification link.
 */
export function YourDataSection({ user }: { user: PublicUser }) {
  const [busy, setBusy] = useState<'download' | 'verify' | null>(null);

  const download = async () => {
    setBusy('download');
    try {
      saveDownload(await downloadMyData());
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to download your data'));
    } finally {
      setBusy(null);
    }
  };
  const verify = async () => {
    setBusy('verify');
    try {
      toast.success((await sendVerification()).message);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to send the link'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      id="your-data-title"
      title="Your data"
      description="Download everything VitalWatch holds about you, in one ZIP file."
    >
      {!user.emailVerified && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-100">
          <p>Your e-mail address is not verified yet: alert e-mails wait until it is.</p>
          <Button size="sm" variant="secondary" disabled={busy !== null} onClick={() => void verify()}>
            Send verification link
          </Button>
        </div>
      )}
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        Your profile, devices and care circles, alerts with their timelines, the readings of your devices (CSV
        and a FHIR R4 Bundle; the last 90 days in full, older ones as hourly averages) and the audit log
        entries about you. A README inside explains each file.
      </p>
      <Button disabled={busy !== null} onClick={() => void download()}>
        {busy === 'download' ? 'Preparing...' : 'Download my data'}
      </Button>
    </Card>
  );
}
