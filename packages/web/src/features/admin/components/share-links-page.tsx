import {
  ADMIN_ERRORS,
  type AdminShareLink,
  SHARE_LINK_STATE_LABELS,
  SHARE_MESSAGES,
  SKELETON_ROWS,
} from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { Cell, DataTable, row, SkeletonRows } from '@/components/data-table.tsx';
import { IconButton } from '@/components/icon-button.tsx';
import { CopyIcon, TrashIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState } from '@/components/status-panels.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { formatDateTime } from '@/lib/format-date.ts';
import { asApiError } from '@/lib/store/api.ts';
import { queryView } from '@/lib/store/query-view.ts';
import { useAdminShareLinksQuery } from '../api/get-share-links.ts';
import { useRevokeShareLinkMutation } from '../api/revoke-share-link.ts';

const COLUMNS = ['Device', 'Made by', 'Created', 'Expires', 'State', 'Actions'] as const;

/** A link that still could serve: revoking it changes something. */
const revocable = (link: AdminShareLink) => link.state === 'active' || link.state === 'no-access';

function ShareLinkRow({
  link,
  onRevoke,
}: {
  link: AdminShareLink;
  onRevoke: (link: AdminShareLink) => void;
}) {
  return (
    <tr className={row}>
      <Cell className="font-medium text-slate-900 dark:text-white">{link.deviceName}</Cell>
      <Cell label="Made by" title={link.creator.fullName}>
        {link.creator.username}
      </Cell>
      <Cell label="Created" className="whitespace-nowrap">
        {formatDateTime(link.createdAt)}
      </Cell>
      <Cell label="Expires" className="whitespace-nowrap">
        {formatDateTime(link.expiresAt)}
      </Cell>
      <Cell label="State">{SHARE_LINK_STATE_LABELS[link.state]}</Cell>
      <Cell label="Actions">
        {revocable(link) && (
          <IconButton
            label={`Revoke link to ${link.deviceName}`}
            tone="danger"
            icon={<TrashIcon className="size-4" />}
            onClick={() => onRevoke(link)}
          />
        )}
      </Cell>
    </tr>
  );
}

/** Share Links (/admin-dashboard/share-links): every read-only link, newest first; revoke any live one. */
export function ShareLinksPage() {
  const query = useAdminShareLinksQuery();
  const state = queryView(query, ADMIN_ERRORS.shareLinksFetchFailed);
  const [revoke, revoking] = useRevokeShareLinkMutation();
  const [asked, setAsked] = useState<AdminShareLink | null>(null);

  const confirm = async () => {
    if (!asked) return;
    try {
      await revoke(asked._id).unwrap();
      toast.success(SHARE_MESSAGES.adminRevoked);
    } catch (error) {
      toast.error(errorMessage(asApiError(error), ADMIN_ERRORS.revokeShareLinkFailed));
    } finally {
      setAsked(null);
    }
  };

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Share Links · VitalWatch</title>
      <PageHeader title="Share Links" subtitle="Read-only links users made to their devices: newest first" />
      {state.status === 'error' && (
        <ErrorState
          title={ADMIN_ERRORS.shareLinksFetchFailed}
          message={state.message}
          onRetry={query.refetch}
        />
      )}
      {state.status === 'loading' && (
        <DataTable caption="Share links" columns={COLUMNS} busy>
          <SkeletonRows rows={SKELETON_ROWS} columns={COLUMNS.length} />
        </DataTable>
      )}
      {state.status === 'ready' && state.data.length === 0 && (
        <EmptyState icon={<CopyIcon className="size-10" />} title="No share links yet" />
      )}
      {state.status === 'ready' && state.data.length > 0 && (
        <DataTable caption="Share links" columns={COLUMNS}>
          {state.data.map((link) => (
            <ShareLinkRow key={link._id} link={link} onRevoke={setAsked} />
          ))}
        </DataTable>
      )}
      <ConfirmDialog
        open={asked !== null}
        title="Revoke share link"
        message={`The link to ${asked?.deviceName ?? ''} made by ${asked?.creator.username ?? ''} stops working at once.`}
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        busy={revoking.isLoading}
        danger
        onConfirm={() => void confirm()}
        onCancel={() => setAsked(null)}
      />
    </div>
  );
}
