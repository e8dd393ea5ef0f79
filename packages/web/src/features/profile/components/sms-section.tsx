import type { SmsStatus } from '@vitalwatch/shared';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { TextField } from '@/components/form-field.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import { removeSmsNumber, setSmsNumber, smsStatus, testSms, verifySmsNumber } from '../api/sms.ts';

const LOAD_FAILED = 'Failed to fetch SMS settings';

/** The number's state in words, for the status line. */
function stateOf(status: SmsStatus): string {
  if (status.optedOut)
    return 'Opted out: the number replied STOP. Reply START to it to receive alert SMS again.';
  if (status.verified) return 'Verified: high-priority alerts can reach this number by SMS.';
  if (status.codePending) return 'Not verified yet: enter the code sent to this number.';
  return 'Not verified: send a code to verify this number.';
}

/** Profile → Notifications → SMS: the number for alert SMS, its code, its state, and a test. */
export function SmsSection() {
  const [status, setStatus] = useState<SmsStatus | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  /** The server's per-field messages (`phone`, `code`), shown under their field. */
  const [fields, setFields] = useState<Record<string, string>>({});

  const load = useCallback(() => {
    setFailure(null);
    smsStatus().then(setStatus, (e: unknown) => setFailure(errorMessage(e, LOAD_FAILED)));
  }, []);
  useEffect(load, [load]);

  /** Run one action; its answer replaces the status, its failure is shown in the card. */
  const act = async (name: string, run: () => Promise<SmsStatus | string>, fallback: string) => {
    setBusy(name);
    setError(null);
    setNote(null);
    setFields({});
    try {
      const answer = await run();
      if (typeof answer === 'string') setNote(answer);
      else setStatus(answer);
      return true;
    } catch (e) {
      const issues = e instanceof ApiError ? e.issues : [];
      if (issues.length > 0) setFields(Object.fromEntries(issues.map((i) => [i.path, i.message])));
      else setError(errorMessage(e, fallback));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    if (await act('number', () => setSmsNumber(phone.trim()), 'Failed to send a code')) setPhone('');
  };
  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (await act('verify', () => verifySmsNumber(code.trim()), 'Failed to verify the number')) setCode('');
  };
  const test = () =>
    act(
      'test',
      async () => {
        const outcome = await testSms();
        return outcome.accepted
          ? `Test SMS accepted by the provider (${outcome.sid})`
          : `Test SMS not accepted: ${outcome.detail ?? 'no reason given'}`;
      },
      'Failed to send a test SMS',
    );

  return (
    <Card
      id="sms-title"
      title="SMS"
      description="High-priority alerts by text message, when push does not reach you in time."
    >
      {status === null && !failure && (
        <LoadingRegion label="Loading SMS settings">
          <Skeleton className="h-14 w-full" />
        </LoadingRegion>
      )}
      {failure && <ErrorState title={LOAD_FAILED} message={failure} onRetry={load} />}
      {status && !status.configured && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          SMS is not set up on this server. Ask your administrator to configure an SMS provider.
        </p>
      )}
      {status?.configured && (
        <div className="grid gap-4">
          {status.phone && (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="min-w-0">
                <p className="font-medium text-slate-900 dark:text-white">{status.phone}</p>
                <p className="text-sm text-slate-700 dark:text-slate-300">{stateOf(status)}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                {status.verified && !status.optedOut && (
                  <Button size="sm" disabled={busy !== null} onClick={() => void test()}>
                    Send a test SMS
                  </Button>
                )}
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy !== null}
                  onClick={() => void act('remove', removeSmsNumber, 'Failed to remove the number')}
                >
                  Remove number
                </Button>
              </div>
            </div>
          )}
          {status.codePending && (
            <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void verify(e)}>
              <TextField
                label="Code from the SMS"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                maxLength={6}
                error={fields.code}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
              <Button type="submit" size="sm" disabled={busy !== null}>
                Verify
              </Button>
            </form>
          )}
          <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void sendCode(e)}>
            <TextField
              label={status.phone ? 'New phone number' : 'Phone number'}
              type="tel"
              autoComplete="tel"
              required
              placeholder="+14155550123"
              error={fields.phone}
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
            />
            <Button type="submit" size="sm" disabled={busy !== null}>
              Send code
            </Button>
          </form>
          {error && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {error}
            </p>
          )}
          {note && (
            <p role="status" className="break-all text-sm font-medium text-slate-800 dark:text-slate-200">
              {note}
            </p>
          )}
        </div>
      )}
    </Card>
  );
}
