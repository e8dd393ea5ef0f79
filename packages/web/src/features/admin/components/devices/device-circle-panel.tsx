import { CIRCLE_ALERT_ROUTE_LABELS, CIRCLE_ROLE_LABELS } from '@vitalwatch/shared';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { CircleRoleSelect } from '@/components/circle-role-select.tsx';
import { FormError } from '@/components/form-error.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useFormFailure } from '@/lib/use-form-failure.ts';
import { useAdminDeviceCircleQuery } from '../../api/get-device-circle.ts';
import { useSetCircleRoleMutation } from '../../api/set-circle-role.ts';

const muted = 'text-slate-600 dark:text-slate-400';

/**
 * Device Details → 'Care circle': the device's people with their roles, which the admin sets
 * (making someone owner lets them invite, remove and confirm people themselves). A device keeps
 * at least one owner once it has one: the server refuses to step the last one down, and says so.
 */
export function DeviceCirclePanel({ deviceId }: { deviceId: string }) {
  const query = useAdminDeviceCircleQuery(deviceId);
  const view = queryView(query, 'Failed to fetch the care circle');
  const [setRole] = useSetCircleRoleMutation();
  const { failure, busy, attempt } = useFormFailure();

  return (
    <section aria-labelledby={`circle-${deviceId}`} className="space-y-2 text-sm">
      <h3 id={`circle-${deviceId}`} className="text-base font-semibold text-slate-900 dark:text-white">
        Care circle
      </h3>
      {failure && <FormError message={failure} />}
      {view.status === 'loading' && <p className={muted}>Loading the care circle…</p>}
      {view.status === 'error' && (
        <div className="flex flex-wrap items-center gap-2">
          <FormError message={view.message} />
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </div>
      )}
      {view.status === 'ready' && view.data.members.length === 0 && (
        <p className={muted}>Nobody yet: assign users, or a user adds the device by its activation code.</p>
      )}
      {view.status === 'ready' && view.data.members.length > 0 && (
        <ul aria-label="Care circle" className="divide-y divide-slate-200 dark:divide-slate-800">
          {view.data.members.map((m) => (
            <li key={m.userId} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium text-slate-900 dark:text-white">{m.fullName}</p>
                <p className={muted}>
                  {CIRCLE_ALERT_ROUTE_LABELS[m.alerts]} · since {formatDay(m.since)}
                  {m.pending && ' · waiting for an owner to confirm'}
                </p>
              </div>
              <CircleRoleSelect
                label={`Role of ${m.fullName}`}
                value={m.circleRole}
                disabled={busy}
                onChange={(circleRole) =>
                  void attempt(
                    async () => {
                      await setRole({ deviceId, userId: m.userId, circleRole }).unwrap();
                      toast.success(`${m.fullName} is now ${CIRCLE_ROLE_LABELS[circleRole].toLowerCase()}`);
                    },
                    { fallback: 'Failed to change the role', toast: false },
                  )
                }
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
