import { CIRCLE_ROLE_LABELS, isDeviceOnline, relativeTime, type UserDevice } from '@vitalwatch/shared';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/button.tsx';
import { PhoneIcon } from '@/components/icons.tsx';
import { formatDateTime, formatDay } from '@/lib/format-date.ts';
import { wearableFor } from '@/lib/paths.ts';
import { StatusBadge } from './device-status.tsx';

interface DeviceCardProps {
  device: UserDevice;
  now: Date;
  onRename: (device: UserDevice) => void;
  onAlarmSettings: (device: UserDevice) => void;
  onShare: (device: UserDevice) => void;
  onCircle: (device: UserDevice) => void;
}

/**
 * One device: the user's name for it (and the shared one under a nickname), online or offline,
 * active or inactive, Owner when it is theirs, last update, 'Edit name', 'Alarm settings', 'Share',
 * and its care circle (its people).
 */
export function DeviceCard({ device, now, onRename, onAlarmSettings, onShare, onCircle }: DeviceCardProps) {
  const titleId = useId();
  const online = isDeviceOnline(device.lastUpdate, now);
  return (
    <article
      aria-labelledby={titleId}
      className="flex w-full flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-teal-50 text-teal-700 dark:bg-teal-950 dark:text-teal-300">
          <PhoneIcon />
        </span>
        <div className="min-w-0 flex-1">
          <h2
            id={titleId}
            className="truncate font-semibold text-slate-900 dark:text-white"
            title={device.deviceName}
          >
            {device.deviceName}
          </h2>
          {device.nickname !== null && (
            <p className="truncate text-xs text-slate-600 dark:text-slate-400" title={device.sharedName}>
              Shared name: {device.sharedName}
            </p>
          )}
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            <StatusBadge on={online} onText="Online" offText="Offline" />
            <StatusBadge on={device.isValid} onText="Active" offText="Inactive" />
            {device.circleRole === 'owner' && (
              <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-800 dark:bg-violet-950 dark:text-violet-200">
                {CIRCLE_ROLE_LABELS.owner}
              </span>
            )}
          </div>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Last update</dt>
          <dd
            className="font-medium text-slate-900 dark:text-slate-100"
            title={device.lastUpdate ? formatDateTime(device.lastUpdate) : undefined}
          >
            {relativeTime(device.lastUpdate, now)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Added</dt>
          <dd className="font-medium text-slate-900 dark:text-slate-100">{formatDay(device.createdAt)}</dd>
        </div>
      </dl>
      <div className="mt-auto flex flex-wrap gap-2 border-t border-slate-100 pt-4 dark:border-slate-800">
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Edit name of ${device.deviceName}`}
          onClick={() => onRename(device)}
        >
          Edit name
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Alarm settings of ${device.deviceName}`}
          onClick={() => onAlarmSettings(device)}
        >
          Alarm settings
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Share ${device.deviceName} read-only`}
          onClick={() => onShare(device)}
        >
          Share
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Care circle of ${device.deviceName}: ${device.users} ${device.users === 1 ? 'person' : 'people'}`}
          onClick={() => onCircle(device)}
        >
          Care circle ({device.users})
        </Button>
        <Link
          className={buttonClasses('secondary', 'sm')}
          to={wearableFor(device._id)}
          aria-label={`Connect a Bluetooth wearable to ${device.deviceName}`}
        >
          Connect a Bluetooth wearable
        </Link>
      </div>
    </article>
  );
}
