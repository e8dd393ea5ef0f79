import { CIRCLE_ROLE_LABELS, type CircleRole, contracts } from '@vitalwatch/shared';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { Button, buttonClasses } from '@/components/button.tsx';
import { FormError } from '@/components/form-error.tsx';
import { LogoMark } from '@/components/logo.tsx';
import { Skeleton } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { callContract } from '@/lib/call-contract.ts';
import { formatDateTime } from '@/lib/format-date.ts';
import { PATHS } from '@/lib/paths.ts';
import { keepReturnTo } from '@/lib/return-path.ts';
import { asApiError } from '@/lib/store/api.ts';
import { selectIsSignedIn, selectRole } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { useInvitationQuery } from '../api/get-invitation.ts';

const WHAT_ROLE_GIVES: Record<CircleRole, string> = {
  owner: 'see its readings, receive its alerts and run its care circle',
  carer: 'see its readings and receive its alerts',
  viewer: 'see its readings; viewers receive no alerts',
};

const STATE_TEXT = {
  expired: 'This invitation has expired.',
  used: 'This invitation has already been used.',
  revoked: 'This invitation was withdrawn.',
} as const;

/**
 * An invitation link (`/invitation/<token>`): which device, from whom, with which role. Signed
 * out: sign in or create an account, then come back here. Signed in: accept. An expired, used
 * or withdrawn link says so and offers to ask the inviter for a new one.
 */
export function InvitationPage() {
  const token = useParams().token ?? '';
  const navigate = useNavigate();
  const signedIn = useAppSelector(selectIsSignedIn);
  const role = useAppSelector(selectRole);
  const query = useInvitationQuery(token);
  const invitation = query.data;
  const [failure, setFailure] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const [busy, setBusy] = useState(false);
  const back = keepReturnTo(`${PATHS.invitation}/${token}`);

  const run = async (work: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      setFailure(errorMessage(asApiError(error), fallback));
    } finally {
      setBusy(false);
    }
  };
  const accept = () =>
    run(async () => {
      const { message } = await callContract(contracts.circle.accept, { body: { token } });
      toast.success(message);
      navigate(PATHS.devices);
    }, 'Failed to accept the invitation');
  const askAgain = () =>
    run(async () => {
      await callContract(contracts.circle.askAgain, { body: { token } });
      setAsked(true);
    }, 'Failed to ask for a new invitation');

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-12">
      <title>Invitation · VitalWatch</title>
      <section
        aria-labelledby="invitation-title"
        className="w-full max-w-md space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-xl shadow-slate-200/60 dark:border-slate-800 dark:bg-slate-900 dark:shadow-black/30"
      >
        <div className="flex flex-col items-center text-center">
          <LogoMark className="size-12" />
          <h1 id="invitation-title" className="mt-4 text-2xl font-bold text-slate-900 dark:text-white">
            Care circle invitation
          </h1>
        </div>
        {query.isLoading && <Skeleton className="h-24 w-full" />}
        {query.isError && (
          <FormError message={errorMessage(asApiError(query.error), 'This invitation link is not valid')} />
        )}
        {invitation && (
          <>
            <p className="text-slate-700 dark:text-slate-200">
              <strong>{invitation.invitedBy}</strong> invites you to the care circle of{' '}
              <strong>{invitation.deviceName}</strong> as{' '}
              <strong>{CIRCLE_ROLE_LABELS[invitation.circleRole].toLowerCase()}</strong>: you will{' '}
              {WHAT_ROLE_GIVES[invitation.circleRole]}.
            </p>
            {invitation.state === 'open' ? (
              <>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  Sent to {invitation.email}. The link works once, until{' '}
                  {formatDateTime(invitation.expiresAt)}.
                </p>
                {signedIn && role === 'user' && (
                  <Button className="w-full" disabled={busy} onClick={() => void accept()}>
                    Accept invitation
                  </Button>
                )}
                {signedIn && role === 'admin' && (
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    Admins see every device already and cannot join a care circle.
                  </p>
                )}
                {!signedIn && (
                  <div className="flex flex-col gap-2">
                    <Link to={`${PATHS.signup}${back}`} className={buttonClasses('primary', 'md', 'w-full')}>
                      Create an account
                    </Link>
                    <Link
                      to={`${PATHS.signin}${back}`}
                      className={buttonClasses('secondary', 'md', 'w-full')}
                    >
                      I have an account: sign in
                    </Link>
                  </div>
                )}
              </>
            ) : (
              <div className="space-y-3">
                <p role="status" className="font-medium text-amber-800 dark:text-amber-300">
                  {STATE_TEXT[invitation.state]}
                </p>
                {asked ? (
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    We asked {invitation.invitedBy} to send you a new invitation.
                  </p>
                ) : (
                  <Button variant="secondary" disabled={busy} onClick={() => void askAgain()}>
                    Ask {invitation.invitedBy} for a new invitation
                  </Button>
                )}
              </div>
            )}
          </>
        )}
        {failure && <FormError message={failure} />}
      </section>
    </div>
  );
}
