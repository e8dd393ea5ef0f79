import { type AdminDevice, TOASTS } from '@vitalwatch/shared';
import type { ReactNode } from 'react';
import { Button } from '@/components/button.tsx';
import { Modal } from '@/components/modal.tsx';
import { formatDateTime } from '@/lib/format-date.ts';
import type { CodeType } from '../../api/regenerate-code.ts';
import { usernamesOf } from '../../utils/assigned-users.ts';
import { CodeRow } from './code-row.tsx';
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

/** 'Device Details': the device, who it is assigned to, and its two codes (copy, show, regenerate). */
export function DeviceDetailsModal({ device, names, onRegenerate, onClose }: DeviceDetailsModalProps) {
  const assigned = usernamesOf(device.users, names);
  return (
    <Modal open title="Device Details" description={device.deviceName} onClose={onClose} size="max-w-lg">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Detail label="Device Name">{device.deviceName}</Detail>
        <Detail label="Status">
          <ValidityBadge isValid={device.isValid} />
        </Detail>
        <Detail label="Assigned Users" className="sm:col-span-2">
          {device.users.length === 0 ? 'None' : assigned.join(', ') || `${device.users.length} users`}
        </Detail>
        <Detail label="Created">{formatDateTime(device.createdAt)}</Detail>
        <Detail label="Last Updated">
          {device.lastUpdate ? formatDateTime(device.lastUpdate) : 'Never'}
        </Detail>
      </dl>
      <div className="mt-5 space-y-3">
        <CodeRow
          label="Activation Code"
          code={device.activationCode}
          copiedMessage={TOASTS.activationCodeCopied}
          regenerateWarning="A new activation code replaces this one; users who have not added the device yet will need the new code."
          onRegenerate={() => onRegenerate('activationCode')}
        />
        <CodeRow
          label="API Auth Code"
          code={device.apiAuthCode}
          copiedMessage={TOASTS.apiAuthCodeCopied}
          secret
          regenerateWarning="A new API auth code replaces this one at once: the device cannot send data until it is given the new code."
          onRegenerate={() => onRegenerate('apiAuthCode')}
        />
      </div>
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={onClose} data-autofocus>
          Close
        </Button>
      </div>
    </Modal>
  );
}
