import { type AlertTimelineEntry, ERRORS } from '@vitalwatch/shared';
import { Spinner } from '@/components/spinner.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { formatDateTimeSeconds } from '@/lib/format-date.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAlertTimelineQuery } from '../api/get-alert-timeline.ts';

const CHANNEL: Record<NonNullable<AlertTimelineEntry['channel']>, string> = {
  push: 'push notification',
  email: 'e-mail',
  sms: 'SMS',
  webhook: 'webhook',
};

/** One line of the timeline in words. */
function describe(e: AlertTimelineEntry): string {
  const who = e.by ?? 'a removed user';
  switch (e.kind) {
    case 'raised':
      return `Raised: ${e.detail ?? ''}`;
    case 'notified': {
      const how = e.channel ? CHANNEL[e.channel] : 'notification';
      return e.ok ? `${how} sent to ${who}` : `${how} to ${who} failed${e.detail ? `: ${e.detail}` : ''}`;
    }
    case 'shown':
      return `push notification shown on a device of ${who}`;
    case 'opened':
      return `push notification opened by ${who}`;
    case 'escalated':
      return `Escalated: ${e.detail ?? ''}`;
    case 'fallback':
      return `${who} tried by ${e.channel ? CHANNEL[e.channel] : 'another channel'}: ${e.detail ?? ''}`;
    case 'acknowledged':
      return `Acknowledged by ${who}${e.detail ? `: “${e.detail}”` : ''}`;
    case 'resolved':
      return e.by
        ? `Marked handled by ${e.by}${e.detail ? `: “${e.detail}”` : ''}`
        : `Resolved: ${e.detail ?? ''}`;
  }
}

/** Who was told, how, whether it arrived, and who acted: fetched when opened. */
export function AlertTimeline({ alertId }: { alertId: string }) {
  const { data: entries, isError, error } = useAlertTimelineQuery(alertId);
  if (!entries && isError) {
    return (
      <p role="alert" className="text-xs text-red-700 dark:text-red-300">
        {errorMessage(asApiError(error), ERRORS.alertsFetchFailed, ERRORS.unexpected)}
      </p>
    );
  }
  if (!entries) {
    return (
      <p role="status" className="flex items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
        <Spinner className="size-3" /> Loading timeline…
      </p>
    );
  }
  return (
    <ol
      data-testid="alert-timeline"
      className="space-y-1 border-l-2 border-slate-200 pl-3 dark:border-slate-700"
    >
      {entries.map((e) => (
        <li
          key={e.id}
          className={`text-xs ${e.ok === false ? 'text-red-700 dark:text-red-300' : 'text-slate-700 dark:text-slate-300'}`}
        >
          <time dateTime={e.at} className="font-semibold">
            {formatDateTimeSeconds(e.at)}
          </time>{' '}
          {describe(e)}
        </li>
      ))}
    </ol>
  );
}
