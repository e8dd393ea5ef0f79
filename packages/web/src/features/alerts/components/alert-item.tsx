import { type AlertRecord, alertTypeLabel, PRIORITY_LABELS, relativeTime } from '@vitalwatch/shared';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { AlertTriangleIcon, BatteryIcon, BellIcon } from '@/components/icons.tsx';
import { useDeviceNameOf } from '@/lib/device-names.ts';
import { formatDateTime } from '@/lib/format-date.ts';
import { alertTone, cardTone, PRIORITY_CLASSES, TONE_CLASSES } from '../utils/alert-style.ts';
import { AcknowledgeNoteForm } from './acknowledge-note-form.tsx';
import { AlertActions, lifecycleText } from './alert-actions.tsx';
import { AlertTimeline } from './alert-timeline.tsx';

interface AlertItemProps {
  alert: AlertRecord;
  now: Date;
  /** When given, an unread alert is a button that marks it read. */
  onMarkRead?: (alert: AlertRecord) => void;
}

function ToneIcon({ tone }: { tone: ReturnType<typeof cardTone> }) {
  if (tone === 'blue') return <BatteryIcon className="size-4" />;
  if (tone === 'red') return <AlertTriangleIcon className="size-4" />;
  return <BellIcon className="size-4" />;
}

/**
 * One alert: type colour, priority, title, message, device, when, whether it is unread, who
 * acknowledged or resolved it, and the actions left to take.
 */
export function AlertItem({ alert, now, onMarkRead }: AlertItemProps) {
  // The card takes its priority's colour where that outranks its type's; the type badge its type's.
  const tone = cardTone(alert);
  const nameOf = useDeviceNameOf();
  const classes = TONE_CLASSES[tone];
  const handled = alert.status !== 'active';
  const when = new Date(alert.createdAt);
  // The {' '} between parts keep words apart in the accessible name (the unread alert's button is
  // named by this content: title, type, priority, Unread, message, device and time); in the flex
  // rows they take no space.
  const body = (
    <>
      <span className={`flex size-8 shrink-0 items-center justify-center rounded-full ${classes.icon}`}>
        <ToneIcon tone={tone} />
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className={`font-semibold text-slate-900 dark:text-white ${alert.isRead ? '' : 'font-bold'}`}>
            {alert.alertTitle}
          </span>{' '}
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${TONE_CLASSES[alertTone(alert.alertType)].badge}`}
          >
            {alertTypeLabel(alert.alertType)}
          </span>{' '}
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${PRIORITY_CLASSES[alert.priority]}`}
          >
            {PRIORITY_LABELS[alert.priority]}
          </span>{' '}
          {!alert.isRead && (
            <span className="inline-flex items-center gap-1 text-xs font-semibold text-teal-700 dark:text-teal-400">
              <span aria-hidden="true" className="size-2 rounded-full bg-teal-600 dark:bg-teal-400" />
              {handled ? 'New to you' : 'Unread'}
            </span>
          )}
        </span>{' '}
        <span className="mt-0.5 block text-sm break-words text-slate-700 dark:text-slate-300">
          {alert.alertMessage}
        </span>{' '}
        <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
          {nameOf(alert)} ·{' '}
          <time dateTime={alert.createdAt} title={formatDateTime(when)}>
            {relativeTime(alert.createdAt, now)}
          </time>
        </span>
      </span>
    </>
  );
  // Marking read turns the button into plain text; focus that was on it moves to the text (which
  // now reads without "Unread") instead of falling to <body>.
  const readText = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);
  useLayoutEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (alert.isRead && refocus.current && lost) readText.current?.focus();
    refocus.current = false;
  }, [alert.isRead]);
  const status = lifecycleText(alert, now);
  const [open, setOpen] = useState(false);
  const [noting, setNoting] = useState(false);
  const timelineId = useId();
  const frame = `rounded-xl border border-l-4 border-slate-200 dark:border-slate-800 ${classes.border} ${
    alert.isRead ? 'bg-white dark:bg-slate-900' : 'bg-teal-50/60 dark:bg-teal-950/20'
  }`;
  const content = 'flex w-full items-start gap-3 p-3 text-left';
  const footer = (
    <div className="flex flex-wrap items-center justify-between gap-2 px-3 pb-3 sm:pl-14">
      {status ? (
        <p data-testid="alert-lifecycle" className="text-xs font-medium text-slate-600 dark:text-slate-300">
          {status}
        </p>
      ) : (
        <span />
      )}
      <span className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={timelineId}
          onClick={() => setOpen((o) => !o)}
          className="rounded-md px-2 py-1 text-xs font-semibold text-teal-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-teal-300"
        >
          {open ? 'Hide details' : 'Details'}
        </button>
        <AlertActions alert={alert} onAddNote={() => setNoting(true)} />
      </span>
    </div>
  );
  return (
    <div className={frame}>
      {onMarkRead && !alert.isRead ? (
        <button
          type="button"
          onClick={(event) => {
            refocus.current = document.activeElement === event.currentTarget;
            onMarkRead(alert);
          }}
          className={`${content} rounded-xl hover:bg-teal-50 dark:hover:bg-teal-950/40`}
        >
          {body} <span className="sr-only">Mark as read</span>
        </button>
      ) : (
        <div
          ref={readText}
          tabIndex={-1}
          className={`${content} rounded-xl focus-visible:outline-2 focus-visible:outline-teal-600 dark:focus-visible:outline-teal-400`}
        >
          {body}
        </div>
      )}
      {footer}
      {noting && alert.status === 'active' && (
        <div className="px-3 pb-3 sm:pl-14">
          <AcknowledgeNoteForm alert={alert} onClose={() => setNoting(false)} />
        </div>
      )}
      {open && (
        <div id={timelineId} className="px-3 pb-3 sm:pl-14">
          <AlertTimeline alertId={alert._id} />
        </div>
      )}
    </div>
  );
}
