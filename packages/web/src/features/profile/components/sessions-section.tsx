import { type AccountSession, relativeTime } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { endingSession } from '@/lib/api-client.ts';
import { errorMessage } from '@/lib/api-error.ts';
import { loggedOut } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { clearTokens } from '@/lib/token-storage.ts';
import { endOtherSessions, endSession, listSessions } from '../api/account.ts';
import { browserName } from '../utils/browser-name.ts';

const LOAD_FAILED = 'Failed to fetch sessions';

/** Profile → Sessions: the browsers signed in to this account, each (or all others) ended here. */
export function SessionsSection() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const dispatch = useAppDispatch();

  const load = useCallback(() => {
    setFailure(null);
    listSessions().then(setSessions, (error: unknown) => setFailure(errorMessage(error, LOAD_FAILED)));
  }, []);
  useEffect(load, [load]);

  const end = async (session: AccountSession) => {
    setBusy(session.id);
    try {
      // This browser's own: nothing else of the session may meet its refusal.
      await (session.current
        ? endingSession(() => endSession(session.id, true))
        : endSession(session.id, false));
      toast.success('Session ended');
      // Ending this browser's own session signs it out.
      if (session.current) {
        clearTokens();
        dispatch(loggedOut());
      } else setSessions((list) => list?.filter((s) => s.id !== session.id) ?? null);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to end the session'));
    } finally {
      setBusy(null);
    }
  };
  const endOthers = async () => {
    setBusy('others');
    try {
      await endOtherSessions();
      toast.success('Every other session ended');
      setSessions((list) => list?.filter((s) => s.current) ?? null);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to end the sessions'));
    } finally {
      setBusy(null);
    }
  };

  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <Card
      id="sessions-title"
      title="Sessions"
      description="Browsers signed in to your account. End any you do not recognise."
      action={
        others > 0 && (
          <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => void endOthers()}>
            End all other sessions
          </Button>
        )
      }
    >
      {failure && <ErrorState title={LOAD_FAILED} message={failure} onRetry={load} />}
      {!failure && !sessions && (
        <LoadingRegion label="Loading sessions">
          <Skeleton className="h-14 w-full" />
        </LoadingRegion>
      )}
      {sessions && (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {sessions.map((session) => {
            const name = browserName(session.userAgent);
            return (
              <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900 dark:text-white">
                    {name}
                    {session.current && (
                      <span className="ml-2 rounded-full bg-teal-100 px-2 py-0.5 text-xs font-semibold text-teal-800 dark:bg-teal-900/60 dark:text-teal-200">
                        This browser
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {session.ip ?? 'Unknown address'} · last used {relativeTime(session.lastUsedAt)} · signed
                    in {relativeTime(session.signedInAt)}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={session.current ? 'End the session of this browser' : `End session of ${name}`}
                  disabled={busy !== null}
                  onClick={() => void end(session)}
                >
                  End
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
