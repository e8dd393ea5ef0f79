import { type AdminDevice, DEVICE_SETUP_MESSAGES, TOASTS } from '@vitalwatch/shared';
import type { ReactNode } from 'react';
import { Button } from '@/components/button.tsx';
import { Modal } from '@/components/modal.tsx';
import { formatDateTime } from '@/lib/format-date.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useAdminDeviceLatestQuery } from '../../api/get-device-latest.ts';
import type { CodeType } from '../../api/regenerate-code.ts';
import { usernamesOf } from '../../utils/assigned-users.ts';
import { TeamNames } from '../teams/team-names.tsx';
import { CodeRow } from './code-row.tsx';
import { DeviceCirclePanel } from './device-circle-panel.tsx';
import { DeviceReadingPanel } from './device-reading-panel.tsx';
import { DeviceSnippets } from './device-snippets.tsx';
import { ValidityBadge } from './validity-badge.tsx';

/** One term and its value: a direct child of the <dl> (a div is the only wrapper a <dl> allows). */
function Detail({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {label}
      </dt>
      <dd className="mt-0.5 break-words text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

interface DeviceDetailsModalProps {
  device: AdminDevice;
  /** Username of each known user id. */
  names: ReadonlyMap<string, string>;
  onRegenerate: (codeType: CodeType) => Promise<void>;
  onClose: () => void;
}

/** How often the open modal asks for the newest reading: a device sends every few seconds. */
const LATEST_POLL_MS = 5000;

/**
 * 'Device Details': the device, who it is assigned to and their care-circle roles (the admin
 * makes someone owner here), its newest reading (refreshed while open)
 * with "Send a test reading", its two codes (copy, show, regenerate) labelled by who uses them,
 * and commands that send a reading as the device will.
 */
export function DeviceDetailsModal({ device, names, onRegenerate, onClose }: DeviceDetailsModalProps) {
  const assigned = usernamesOf(device.users, names);
  const latestQuery = useAdminDeviceLatestQuery(device._id, {
    pollingInterval: LATEST_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const latest = queryView(latestQuery, DEVICE_SETUP_MESSAGES.latestFetchFailed);
  return (
    <Modal open title="Device Details" description={device.deviceName} onClose={onClose} size="max-w-2xl">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Detail label="Device Name">{device.deviceName}</Detail>
        <Detail label="Status">
          <ValidityBadge isValid={device.isValid} />
        </Detail>
        <Detail label="Assigned Users" className="sm:col-span-2">
          {device.users.length === 0 ? 'None' : assigned.join(', ') || `${device.users.length} users`}
        </Detail>
        <Detail label="Care Teams" className="sm:col-span-2">
          <TeamNames deviceId={device._id} />
        </Detail>
        <Detail label="Created">{formatDateTime(device.createdAt)}</Detail>
        <Detail label="Last Updated">
          {device.lastUpdate ? formatDateTime(device.lastUpdate) : 'Never'}
        </Detail>
      </dl>
      <div className="mt-6">
        <DeviceCirclePanel deviceId={device._id} />
      </div>
      <div className="mt-6">
        <DeviceReadingPanel
          device={device}
          latest={latest}
          onRetry={latestQuery.refetch}
          onSent={latestQuery.refetch}
        />
      </div>
      <div className="mt-6 space-y-3">
        <CodeRow
          label="Activation Code"
          hint="For the person who wears it or cares for them: My Devices → Add Device"
          code={device.activationCode}
          copiedMessage={TOASTS.activationCodeCopied}
          regenerateWarning="A new activation code replaces this one; users who have not added the device yet will need the new code."
          onRegenerate={() => onRegenerate('activationCode')}
        />
        <CodeRow
          label="API Auth Code"
          hint="For the device itself: X-Api-Key header or MQTT password"
          code={device.apiAuthCode}
          copiedMessage={TOASTS.apiAuthCodeCopied}
          secret
          regenerateWarning="A new API auth code replaces this one at once: the device cannot send data until it is given the new code."
          onRegenerate={() => onRegenerate('apiAuthCode')}
        />
      </div>
      <div className="mt-6">
        <DeviceSnippets device={device} mqtt={latest.status === 'ready' ? latest.data.mqtt : undefined} />
      </div>
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={onClose} data-autofocus>
          Close
        </Button>
      </div>
    </Modal>
  );
}
