import { BACKUP_MESSAGES, BACKUP_PASSPHRASE_MIN, contracts, urlOf } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { TextField } from '@/components/form-field.tsx';
import { downloadFile } from '@/lib/api-client.ts';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import { saveDownload } from '@/lib/save-download.ts';

type BackupState =
  | { status: 'idle' }
  | { status: 'running'; bytes: number }
  | { status: 'failed'; message: string };

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * "Backup": the whole database as one file (`contracts.backup.download`, audit-logged by the
 * server), encrypted when a passphrase is given. The bytes received show while it streams.
 */
export function BackupCard({ className }: { className?: string }) {
  const [passphrase, setPassphrase] = useState('');
  const [state, setState] = useState<BackupState>({ status: 'idle' });
  const tooShort = passphrase.length > 0 && passphrase.length < BACKUP_PASSPHRASE_MIN;

  const start = async (event?: FormEvent) => {
    event?.preventDefault();
    if (tooShort) return;
    setState({ status: 'running', bytes: 0 });
    try {
      const file = await downloadFile(urlOf(contracts.backup.download), 'user', {
        body: passphrase ? { passphrase } : {},
        onProgress: (bytes) => setState({ status: 'running', bytes }),
      });
      saveDownload(file);
      setState({ status: 'idle' });
      toast.success(BACKUP_MESSAGES.downloaded);
    } catch (error) {
      // No answer at all (the connection dropped) is told as such, in the client's own words.
      const unanswered = error instanceof ApiError ? error.message : BACKUP_MESSAGES.downloadFailed;
      setState({
        status: 'failed',
        message: errorMessage(error, BACKUP_MESSAGES.downloadFailed, unanswered),
      });
    }
  };

  const running = state.status === 'running';
  return (
    <Card
      title="Backup"
      description="Everything in one file: accounts and their two-factor secrets, devices, readings, alerts and the audit log. Keep it somewhere safe; restore it with npm run restore."
      className={className}
    >
      <form className="space-y-4" onSubmit={(event) => void start(event)}>
        <TextField
          label="Passphrase (optional)"
          type="password"
          autoComplete="new-password"
          value={passphrase}
          disabled={running}
          onChange={(event) => setPassphrase(event.target.value)}
          error={tooShort ? BACKUP_MESSAGES.passphraseTooShort : undefined}
          hint="With a passphrase the file is encrypted (AES-256-GCM). Without it, anyone who has the file can read it."
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={running || tooShort}>
            {running ? 'Preparing backup...' : 'Download backup'}
          </Button>
          {running && (
            <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
              {state.bytes > 0 ? `${megabytes(state.bytes)} received` : 'Reading the database...'}
            </p>
          )}
        </div>
        {state.status === 'failed' && (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-100"
          >
            <span>
              <strong>{BACKUP_MESSAGES.downloadFailed}.</strong>
              {state.message !== BACKUP_MESSAGES.downloadFailed && ` ${state.message}`}
            </span>
            <Button variant="secondary" size="sm" onClick={() => void start()}>
              Try again
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}
