import { skipToken } from '@reduxjs/toolkit/query';
import {
  CIRCLE_ALERT_ROUTE_LABELS,
  CIRCLE_INVITATION_DAYS,
  CIRCLE_ROLE_LABELS,
  type CircleMember,
  type CircleRole,
  type UserDevice,
} from '@vitalwatch/shared';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { CircleRoleSelect, circleSelectClass } from '@/components/circle-role-select.tsx';
import { FormError } from '@/components/form-error.tsx';
import { Modal } from '@/components/modal.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { formatDateTime, formatDay } from '@/lib/format-date.ts';
import { asApiError } from '@/lib/store/api.ts';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { useFormFailure } from '@/lib/use-form-failure.ts';
import {
  useChangeCircleRoleMutation,
  useConfirmInCircleMutation,
  useInviteToCircleMutation,
  useRegenerateActivationCodeMutation,
  useRemoveFromCircleMutation,
  useRevokeInvitationMutation,
} from '../api/change-care-circle.ts';
import { useCareCircleQuery } from '../api/get-care-circle.ts';
import { ChannelHealthLine } from './channel-health-line.tsx';

const muted = 'text-slate-600 dark:text-slate-400';

/**
 * 'Care circle': who watches the device (name, role, how alerts reach them, since when). Owners
 * invite by e-mail, withdraw invitations, change roles, remove people, confirm people who used the
 * activation code and get a new code; anyone leaves.
 */
export function CareCircleModal({ device, onClose }: { device: UserDevice | null; onClose: () => void }) {
  const me = useAppSelector(selectCurrentUser)?._id;
  const query = useCareCircleQuery(device?._id ?? skipToken);
  const circle = query.data;
  const [invite] = useInviteToCircleMutation();
  const [revoke] = useRevokeInvitationMutation();
  const [changeRole] = useChangeCircleRoleMutation();
  const [remove] = useRemoveFromCircleMutation();
  const [confirm] = useConfirmInCircleMutation();
  const [regenerate] = useRegenerateActivationCodeMutation();
  const { failure, busy, attempt } = useFormFailure();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<CircleRole>('carer');
  const [code, setCode] = useState<string | null>(null);
  const emailId = useId();
  const deviceId = device?._id ?? '';
  const manage = circle?.canManage ?? false;
  const shownFailure =
    failure ??
    (query.isError ? errorMessage(asApiError(query.error), 'Failed to fetch the care circle') : null);

  const act = (work: () => Promise<unknown>, done: string, fallback: string) =>
    attempt(
      async () => {
        await work();
        toast.success(done);
      },
      { fallback, toast: false },
    );
  const sendInvite = () =>
    act(
      async () => {
        await invite({ deviceId, email, circleRole: role }).unwrap();
        setEmail('');
      },
      `Invitation sent to ${email}`,
      'Failed to send the invitation',
    );
  const leaveOrRemove = (member: CircleMember) =>
    act(
      async () => {
        await remove({ deviceId, userId: member.userId }).unwrap();
        if (member.userId === me) onClose();
      },
      member.userId === me ? 'You left the care circle' : `${member.fullName} removed`,
      'Failed to remove',
    );

  return (
    <Modal
      open={device !== null}
      title="Care circle"
      description={`The people who watch ${device?.deviceName ?? 'this device'}: carers get its alerts, viewers only see its data.`}
      onClose={onClose}
      size="max-w-2xl"
    >
      <div className="space-y-5 text-sm">
        {shownFailure && <FormError message={shownFailure} />}
        <ul aria-label="People" className="divide-y divide-slate-200 dark:divide-slate-800">
          {(circle?.members ?? []).map((m) => (
            <li key={m.userId} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <div className="min-w-0">
                <p className="font-medium text-slate-900 dark:text-white">
                  {m.fullName}
                  {m.userId === me && <span className={muted}> (you)</span>}
                </p>
                <p className={muted}>
                  {CIRCLE_ROLE_LABELS[m.circleRole]} · {CIRCLE_ALERT_ROUTE_LABELS[m.alerts]} · since{' '}
                  {formatDay(m.since)}
                </p>
                {!m.pending && m.alerts !== 'none' && <ChannelHealthLine member={m} />}
                {m.pending && (
                  <p className="font-medium text-amber-800 dark:text-amber-300">
                    Used the activation code: waiting for an owner to confirm
                  </p>
                )}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {manage && m.pending && (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() =>
                      void act(
                        () => confirm({ deviceId, userId: m.userId }).unwrap(),
                        `${m.fullName} confirmed`,
                        'Failed to confirm',
                      )
                    }
                  >
                    Confirm
                  </Button>
                )}
                {manage && (
                  <CircleRoleSelect
                    label={`Role of ${m.fullName}`}
                    value={m.circleRole}
                    disabled={busy}
                    onChange={(circleRole) =>
                      void act(
                        () => changeRole({ deviceId, userId: m.userId, circleRole }).unwrap(),
                        `${m.fullName} is now ${CIRCLE_ROLE_LABELS[circleRole].toLowerCase()}`,
                        'Failed to change the role',
                      )
                    }
                  />
                )}
                {(manage || m.userId === me) && (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy}
                    aria-label={m.userId === me ? 'Leave this care circle' : `Remove ${m.fullName}`}
                    onClick={() => void leaveOrRemove(m)}
                  >
                    {m.userId === me ? 'Leave' : 'Remove'}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
        {manage && (
          <>
            <form
              className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
              onSubmit={(event) => {
                event.preventDefault();
                void sendInvite();
              }}
            >
              <h3 className="font-medium text-slate-800 dark:text-slate-100">Invite someone</h3>
              <p className={muted}>
                They get an e-mail with a link that works once, for {CIRCLE_INVITATION_DAYS} days.
              </p>
              <div className="flex flex-wrap items-end gap-2">
                <div className="w-full space-y-1 sm:w-auto sm:min-w-56 sm:flex-1">
                  <label htmlFor={emailId} className="block font-medium text-slate-700 dark:text-slate-200">
                    E-mail
                  </label>
                  <input
                    id={emailId}
                    type="email"
                    required
                    value={email}
                    onChange={(event) => setEmail(event.target.value)}
                    className={`${circleSelectClass} w-full py-2`}
                  />
                </div>
                <CircleRoleSelect label="Role of the invited person" value={role} onChange={setRole} />
                <Button type="submit" disabled={busy || email === ''}>
                  Send invitation
                </Button>
              </div>
            </form>
            <div>
              <h3 className="font-medium text-slate-800 dark:text-slate-100">Pending invitations</h3>
              {circle?.invitations.length ? (
                <ul className="mt-1 divide-y divide-slate-200 dark:divide-slate-800">
                  {circle.invitations.map((inv) => (
                    <li key={inv._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <span className="min-w-0 break-all text-slate-700 dark:text-slate-300">
                        {inv.email} · {CIRCLE_ROLE_LABELS[inv.circleRole]} · until{' '}
                        {formatDateTime(inv.expiresAt)}
                      </span>
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={busy}
                        aria-label={`Withdraw the invitation to ${inv.email}`}
                        onClick={() =>
                          void act(
                            () => revoke({ deviceId, invitationId: inv._id }).unwrap(),
                            'Invitation withdrawn',
                            'Failed to withdraw',
                          )
                        }
                      >
                        Withdraw
                      </Button>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className={`mt-1 ${muted}`}>None.</p>
              )}
            </div>
            <div className="space-y-2">
              <h3 className="font-medium text-slate-800 dark:text-slate-100">Activation code</h3>
              <p className={muted}>
                Anyone else who uses the code waits for an owner to confirm them. A new code stops the old
                one.
              </p>
              {code && (
                <p className="font-mono text-base text-slate-900 dark:text-white" aria-live="polite">
                  New code: {code}
                </p>
              )}
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  void act(
                    async () => setCode(await regenerate(deviceId).unwrap()),
                    'New activation code made',
                    'Failed to make a new code',
                  )
                }
              >
                New activation code
              </Button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
