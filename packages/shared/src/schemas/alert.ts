import { z } from 'zod';
import { ALERTS_LATEST_MAX, ALERTS_PAGE_MAX_LIMIT } from '../constants.ts';
import { ALERT_PRIORITIES, ALERT_STATUSES, URGENT_ALERT_TYPES } from '../rules/alarms.ts';
import { SNOOZE_MINUTES } from '../rules/quiet-hours.ts';
import { envelope, rangeQueryFields, toNotBeforeFrom } from './common.ts';
import { messageIdField, oneOrBatch, recordedAtField } from './health.ts';
import { PLAIN_TEXT_PATTERN, plainTextMessage } from './user.ts';

export const ALERT_MESSAGES = {
  fetched: 'Alerts fetched successfully',
  marked: 'Alerts marked as read',
  deviceNotFound: 'Device not found',
  invalidCursor: 'Invalid cursor',
  alertNotFound: 'Alert not found',
  acknowledged: 'Alert acknowledged',
  alreadyAcknowledged: 'Alert already acknowledged',
  resolved: 'Alert marked as handled',
  alreadyResolved: 'Alert already resolved',
  snoozed: 'Alert snoozed for you',
  unsnoozed: 'Snooze ended',
  snoozesFetched: 'Snoozes fetched successfully',
  cannotSnooze: 'FALL and SOS alerts cannot be snoozed',
  invalidActionToken: 'This link has expired or is not valid',
  timelineFetched: 'Alert timeline fetched successfully',
} as const;

/**
 * A device-raised event (FALL, SOS, …). Title and message default to carer-readable texts; given,
 * they are refused with what names refuse (a carer reads them as the device wrote them).
 */
export const alertEvent = z
  .object({
    messageId: messageIdField.optional(),
    recordedAt: recordedAtField.optional(),
    alertType: z
      .string({ error: 'alertType is required' })
      .regex(/^[A-Z][A-Z0-9_]{1,31}$/, 'alertType must be an upper-case name such as FALL or SOS'),
    alertTitle: z
      .string({ error: 'alertTitle must be a string' })
      .trim()
      .min(1, 'alertTitle must not be empty')
      .max(200, 'alertTitle is too long (at most 200 characters)')
      .regex(PLAIN_TEXT_PATTERN, plainTextMessage('alertTitle'))
      .optional(),
    alertMessage: z
      .string({ error: 'alertMessage must be a string' })
      .trim()
      .min(1, 'alertMessage must not be empty')
      .max(1000, 'alertMessage is too long (at most 1000 characters)')
      // Names' rule, but a message may break lines and tab-align.
      .refine(
        (text) => PLAIN_TEXT_PATTERN.test(text.replace(/[\t\n\r]/g, '')),
        plainTextMessage('alertMessage'),
      )
      .optional(),
  })
  .strict();
export type AlertEvent = z.infer<typeof alertEvent>;

/** `POST /ingest/alert` and MQTT `devices/<id>/alert`: one event or up to 500. */
export const alertIngestBody = oneOrBatch(alertEvent, 'alerts');

/** Who acknowledged or resolved an alert, and when (`by` null: the episode ended by itself). */
const lifecycleMark = z.object({ at: z.string(), by: z.string().nullable(), note: z.string().nullable() });

/** The state of an alert shared by everyone assigned to its device. */
export const alertLifecycle = z.object({
  _id: z.string(),
  device: z.string(),
  priority: z.enum(ALERT_PRIORITIES),
  status: z.enum(ALERT_STATUSES),
  acknowledged: lifecycleMark.nullable(),
  resolved: lifecycleMark.nullable(),
});
export type AlertLifecycle = z.infer<typeof alertLifecycle>;

/**
 * An alert as a user sees it; `createdAt` is when it happened, `isRead` is this user's read
 * state, the lifecycle (priority, status, acknowledged, resolved) everyone's.
 */
export const alertRecord = alertLifecycle.extend({
  deviceName: z.string(),
  alertType: z.string(),
  alertTitle: z.string(),
  alertMessage: z.string(),
  /** When it happened (device time). */
  createdAt: z.string(),
  /** When the server stored it: what is new to a carer is ordered by this. */
  receivedAt: z.string(),
  isRead: z.boolean(),
});
export type AlertRecord = z.infer<typeof alertRecord>;

/** `POST /alert/acknowledge/:alertId` and `/alert/resolve/:alertId`. */
export const alertIdParams = z.object({ alertId: z.string().min(1).max(64) });
/** The most characters an acknowledgement's or a handling's note holds. */
export const ALERT_NOTE_MAX = 500;
/** A carer's note on acknowledging or handling an alert ("On my way"): shown on its timeline. */
export const alertNote = z
  .string({ error: 'note must be a string' })
  .trim()
  .max(ALERT_NOTE_MAX, `note is too long (at most ${ALERT_NOTE_MAX} characters)`)
  .regex(/^(?:[^\p{Cc}]|[\t\n\r])*$/u, 'note must not contain control characters');
export const alertActionBody = z.object({ note: alertNote.optional() }).strict().nullish();
export const alertLifecycleResponse = envelope(z.object({ alert: alertLifecycle }));

/** `POST /alert/acknowledge-by-token`: the notification's Acknowledge button (no sign-in). */
export const ALERT_ACK_BY_TOKEN_PATH = '/api/v1/alert/acknowledge-by-token';
export const acknowledgeByTokenBody = z.object({ token: z.string().min(1).max(2048) }).strict();

export const alertsResponse = envelope(
  z.object({ alerts: z.array(alertRecord), nextCursor: z.string().nullable().optional() }),
);

/** `POST /alert/latest/:count`: 1 to 100 newest alerts. */
export const alertLatestParams = z.object({
  count: z.coerce
    .number({ error: 'count must be a number' })
    .int('count must be a whole number')
    .min(1, 'count must be at least 1')
    .max(ALERTS_LATEST_MAX, `count must be at most ${ALERTS_LATEST_MAX}`),
});

/**
 * `POST /alert/all` (all optional): one device, a time range, a status and a priority (the urgent
 * banner asks for active high-priority ones), the `nextCursor` of the previous page.
 */
export const alertAllBody = z
  .object({
    deviceId: z.string().min(1).max(64).optional(),
    status: z.enum(ALERT_STATUSES, { error: 'status must be active, acknowledged or resolved' }).optional(),
    priority: z.enum(ALERT_PRIORITIES, { error: 'priority must be high, medium or low' }).optional(),
    /** `recent` (default): newest first; `priority`: high first, then medium, then low, each newest first. */
    sort: z.enum(['recent', 'priority'], { error: 'sort must be recent or priority' }).optional(),
    cursor: z.string().max(200).optional(),
    ...rangeQueryFields(ALERTS_PAGE_MAX_LIMIT),
  })
  .strict()
  .refine(...toNotBeforeFrom)
  .nullish();
export type AlertAllBody = z.infer<typeof alertAllBody>;

/**
 * A page of alerts, newest first. `total` and `unreadCount` count every alert matching the
 * filters (not just this page); `nextCursor` is null on the last page.
 */
export const alertsPageResponse = envelope(
  z.object({
    alerts: z.array(alertRecord),
    nextCursor: z.string().nullable(),
    total: z.number().int(),
    unreadCount: z.number().int(),
  }),
);

export const markReadBody = z.object({
  data: z.object({ alerts: z.array(z.string().min(1).max(64)).min(1).max(1000) }),
});
/** The ids this call marked: alerts of the caller's devices that were unread for the caller. */
export const markReadResponse = envelope(z.object({ alerts: z.array(z.string()) }));

/**
 * `POST /alert/snooze`: for the caller only, no push or e-mail for this device's alerts of this
 * type for a while (others assigned still get them; high priority always comes through).
 */
export const snoozeBody = z
  .object({
    deviceId: z.string({ error: 'deviceId is required' }).min(1).max(64),
    alertType: z
      .string({ error: 'alertType is required' })
      .regex(/^[A-Z][A-Z0-9_]{1,31}$/, 'alertType must be an upper-case name such as LOW_SPO2')
      .refine((t) => !URGENT_ALERT_TYPES.includes(t), ALERT_MESSAGES.cannotSnooze),
    minutes: z.union(
      SNOOZE_MINUTES.map((m) => z.literal(m)),
      { error: `minutes must be one of ${SNOOZE_MINUTES.join(', ')}` },
    ),
  })
  .strict();
export type SnoozeInput = z.input<typeof snoozeBody>;
export const unsnoozeBody = snoozeBody.omit({ minutes: true });
export const snoozeRecord = z.object({
  device: z.string(),
  deviceName: z.string(),
  alertType: z.string(),
  until: z.string(),
});
export type SnoozeRecord = z.infer<typeof snoozeRecord>;
export const snoozeResponse = envelope(z.object({ snooze: snoozeRecord }));
export const snoozesResponse = envelope(z.object({ snoozes: z.array(snoozeRecord) }));

/** One step in an alert's life, for the alert detail. `by`: who acted or was notified. */
export const alertTimelineEntry = z.object({
  /** Unique within one alert's timeline. */
  id: z.string(),
  at: z.string(),
  /** shown / opened: a browser's receipt for a push notification (service worker, then the click). */
  kind: z.enum([
    'raised',
    'notified',
    'shown',
    'opened',
    'escalated',
    'fallback',
    'acknowledged',
    'resolved',
  ]),
  by: z.string().nullable(),
  channel: z.enum(['push', 'email', 'sms', 'webhook']).nullable(),
  /** For a notification: delivered (true) or failed for good (false). */
  ok: z.boolean().nullable(),
  detail: z.string().nullable(),
});
export type AlertTimelineEntry = z.infer<typeof alertTimelineEntry>;
export const alertTimelineResponse = envelope(z.object({ timeline: z.array(alertTimelineEntry) }));
