import type { AdminStats } from '@vitalwatch/shared';
import { Card } from '@/components/card.tsx';
import type { QueryView } from '@/lib/store/query-view.ts';

/**
 * Channel health: how many primary contacts of high-priority devices (every enabled device with a
 * primary contact: FALL and SOS are always high priority) cannot be reached, and the devices none
 * of whose primary contacts can. The stat cards show the query's error and loading states.
 */
export function ChannelHealthCard({ state }: { state: QueryView<AdminStats> }) {
  if (state.status !== 'ready') return null;
  const { contactsWithoutChannel, devicesWithoutChannel, devices } = state.data.channelHealth;
  const bad = contactsWithoutChannel > 0 || devicesWithoutChannel > 0;
  return (
    <Card
      id="channel-health-title"
      title="Channel health"
      description="A contact has a working channel with a browser that still shows notifications, a verified e-mail or a working webhook."
    >
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">
            Contacts of high-priority devices with no working channel
          </dt>
          <dd className={`text-2xl font-bold tabular-nums ${bad ? 'text-red-700 dark:text-red-300' : ''}`}>
            {contactsWithoutChannel}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">
            Devices none of whose primary contacts can be reached
          </dt>
          <dd className={`text-2xl font-bold tabular-nums ${bad ? 'text-red-700 dark:text-red-300' : ''}`}>
            {devicesWithoutChannel}
          </dd>
        </div>
      </dl>
      {devices.length > 0 && (
        <ul aria-label="Devices without a reachable contact" className="mt-4 flex flex-wrap gap-2">
          {devices.map((d) => (
            <li
              key={d._id}
              className="rounded-full border border-red-600 bg-red-50 px-3 py-1 text-sm font-medium text-red-800 dark:bg-red-950/60 dark:text-red-200"
            >
              {d.deviceName}
            </li>
          ))}
          {devicesWithoutChannel > devices.length && (
            <li className="px-1 py-1 text-sm text-slate-600 dark:text-slate-400">
              and {devicesWithoutChannel - devices.length} more
            </li>
          )}
        </ul>
      )}
    </Card>
  );
}
