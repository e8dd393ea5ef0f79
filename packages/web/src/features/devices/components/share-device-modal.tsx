import { skipToken } from '@reduxjs/toolkit/query';
import { SHARE_DURATIONS_DAYS, type ShareLink, type UserDevice } from '@vitalwatch/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { FormError } from '@/components/form-error.tsx';
import { Modal } from '@/components/modal.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { formatDateTime } from '@/lib/format-date.ts';
import { PATHS } from '@/lib/paths.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useFormFailure } from '@/lib/use-form-failure.ts';
import { useCreateShareLinkMutation } from '../api/create-share-link.ts';
import { useShareLinksQuery } from '../api/get-share-links.ts';
import { useRevokeShareLinkMutation } from '../api/revoke-share-link.ts';

type ShareDays = (typeof SHARE_DURATIONS_DAYS)[number];

const DURATION_LABELS: Record<ShareDays, string> = {
  1: '1 day',
  7: '7 days',
  30: '30 days',
};

const live = (link: ShareLink) => link.revokedAt === null && Date.parse(link.expiresAt) > Date.now();

/**
 * 'Share': a read-only link to one device (newest reading, averages, PDF report) for someone
 * without an account, for a day, a week or a month. The link is shown once; live links are
 * listed, each revocable.
 */
export function ShareDeviceModal({ device, onClose }: { device: UserDevice | null; onClose: () => void }) {
  const [days, setDays] = useState<ShareDays>(7);
  const list = useShareLinksQuery(device?._id ?? skipToken);
  const links = list.data ?? [];
  const [createShareLink] = useCreateShareLinkMutation();
  const [revokeShareLink] = useRevokeShareLinkMutation();
  const [made, setMade] = useState<{ url: string; expiresAt: string } | null>(null);
  const { failure, busy, attempt, clearFailure } = useFormFailure();
  const selectId = useId();
  const linkInput = useRef<HTMLInputElement>(null);

  // The link takes the focus (and is selected, ready to copy) as it appears: the button that made
  // it is disabled while it works, and focus must not fall out of the dialog to the page.
  useEffect(() => {
    if (made) linkInput.current?.focus();
  }, [made]);

  // Another device (or the modal closed): the link shown once and any failure belong to the last one.
  const [shownFor, setShownFor] = useState(device);
  if (device !== shownFor) {
    setShownFor(device);
    setMade(null);
    clearFailure();
  }
  const shownFailure =
    failure ?? (list.isError ? errorMessage(asApiError(list.error), 'Failed to fetch share links') : null);

  const create = () =>
    attempt(
      async () => {
        if (!device) return;
        const { link, token } = await createShareLink({ deviceId: device._id, days }).unwrap();
        setMade({ url: `${window.location.origin}${PATHS.shared}/${token}`, expiresAt: link.expiresAt });
      },
      { fallback: 'Failed to create the link', toast: false },
    );

  const revoke = (id: string) =>
    attempt(
      async () => {
        if (!device) return;
        await revokeShareLink({ id, deviceId: device._id }).unwrap();
        setMade(null);
        toast.success('Share link revoked');
      },
      { fallback: 'Failed to revoke the link', toast: false },
    );

  const copy = async () => {
    if (!made) return;
    try {
      await copyToClipboard(made.url);
      toast.success('Link copied!');
    } catch {
      toast.error('Could not copy: select the link and copy it');
    }
  };

  return (
    <Modal
      open={device !== null}
      title="Share read-only"
      description={`A link to ${device?.deviceName ?? 'this device'}'s newest reading, averages and PDF report, for someone without an account (a doctor, family). It shows nothing else and stops when it expires or you revoke it.`}
      onClose={onClose}
      size="max-w-lg"
    >
      <div className="space-y-4 text-sm">
        <div className="flex flex-wrap items-end gap-2">
          <div className="space-y-1.5">
            <label htmlFor={selectId} className="block font-medium text-slate-700 dark:text-slate-200">
              Link lasts
            </label>
            <select
              id={selectId}
              value={days}
              onChange={(event) =>
                setDays(SHARE_DURATIONS_DAYS.find((d) => d === Number(event.target.value)) ?? 7)
              }
              className="block rounded-lg border border-slate-300 bg-white px-2 py-2 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            >
              {SHARE_DURATIONS_DAYS.map((d) => (
                <option key={d} value={d}>
                  {DURATION_LABELS[d]}
                </option>
              ))}
            </select>
          </div>
          <Button disabled={busy} onClick={() => void create()}>
            {busy ? 'Creating...' : 'Create link'}
          </Button>
        </div>
        {made && (
          <div className="space-y-2 rounded-lg border border-teal-200 bg-teal-50 p-3 dark:border-teal-900 dark:bg-teal-950/40">
            <p className="text-teal-900 dark:text-teal-100">
              Copy it now: it is shown only once. Works until {formatDateTime(made.expiresAt)}.
            </p>
            <input
              ref={linkInput}
              readOnly
              aria-label="Share link"
              value={made.url}
              onFocus={(event) => event.target.select()}
              className="block w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
            <Button size="sm" variant="secondary" onClick={() => void copy()}>
              Copy link
            </Button>
          </div>
        )}
        {shownFailure && <FormError message={shownFailure} />}
        <div>
          <h3 className="font-medium text-slate-700 dark:text-slate-200">Live links</h3>
          {links.filter(live).length === 0 ? (
            <p className="mt-1 text-slate-600 dark:text-slate-400">
              None: nobody can open this device by link.
            </p>
          ) : (
            <ul className="mt-1 divide-y divide-slate-200 dark:divide-slate-800">
              {links.filter(live).map((link) => (
                <li key={link._id} className="flex items-center justify-between gap-2 py-2">
                  <span className="text-slate-700 dark:text-slate-300">
                    Made {formatDateTime(link.createdAt)}, until {formatDateTime(link.expiresAt)}
                  </span>
                  <Button size="sm" variant="secondary" disabled={busy} onClick={() => void revoke(link._id)}>
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Modal>
  );
}
