import { z } from 'zod';
import { PUSH_ENDPOINT_ISSUES } from '../messages.ts';
import { ALERT_PRIORITIES } from '../rules/alarms.ts';
import { envelope } from './common.ts';

/** What follows `scheme://` up to the path, query or fragment (a backslash ends it too, as URL parsers do). */
const authorityOf = (url: string) => url.slice(url.indexOf('//') + 2).split(/[/\\?#]/, 1)[0] ?? '';

/**
 * A push service URL as browsers give it: https, no user name or password. The server checks the
 * rest (standard port, a public host name, what it resolves to) before it stores or sends.
 */
export const pushEndpointSchema = z
  .string()
  .url()
  .max(2048)
  .refine((v) => /^https:\/\//i.test(v), PUSH_ENDPOINT_ISSUES.notHttps)
  .refine((v) => !authorityOf(v).includes('@'), PUSH_ENDPOINT_ISSUES.credentials);

/** A browser PushSubscription as `toJSON()` gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: pushEndpointSchema,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/** `POST /user/save-fcm-token`: the subscription as an object or as its JSON string. */
export const saveFcmTokenBody = z.object({
  fcmToken: z.union([
    pushSubscriptionSchema,
    z
      .string()
      .max(4096)
      .transform((s, ctx) => {
        try {
          return pushSubscriptionSchema.parse(JSON.parse(s));
        } catch {
          ctx.addIssue({ code: 'custom', message: 'fcmToken must be a push subscription' });
          return z.NEVER;
        }
      }),
  ]),
});

/**
 * Data of a push message (spec section 3), plus what an alert adds: its id and priority (a
 * high-priority notification stays until handled), and `renotify` when it is sent again because
 * nobody acknowledged it.
 */
export const pushMessageSchema = z.object({
  title: z.string().default('Notification'),
  body: z.string().default(''),
  tag: z.string().optional(),
  url: z.string().default('/'),
  alertId: z.string().optional(),
  priority: z.enum(ALERT_PRIORITIES).optional(),
  renotify: z.boolean().optional(),
  /** Lets the notification's Acknowledge button act on this one alert for this one user. */
  ackToken: z.string().optional(),
  /** The message's idempotency id: the same id twice is one message sent twice (after a crash). */
  notificationId: z.string().optional(),
  /** Lets the service worker report that this message was shown, then opened (no sign-in needed). */
  receiptToken: z.string().optional(),
});
export type PushMessage = z.infer<typeof pushMessageSchema>;

/** What a browser reports of one push message: shown on the device, or opened by its person. */
export const pushReceiptBody = z.object({
  token: z.string().min(1, 'token is required').max(2000, 'token is too long'),
  event: z.enum(['shown', 'opened'], { error: 'event must be shown or opened' }),
});
export type PushReceipt = z.infer<typeof pushReceiptBody>;

/** `GET /push/public-key`: the VAPID key browsers subscribe with (`applicationServerKey`). */
export const pushPublicKeyResponse = envelope(z.object({ publicKey: z.string() }));

/** One connected browser as its owner sees it: never the endpoint or keys (they are capabilities). */
export const pushBrowser = z.object({
  _id: z.string(),
  userAgent: z.string().nullable(),
  /** Host of the browser vendor's push service, e.g. fcm.googleapis.com. */
  pushService: z.string(),
  createdAt: z.string(),
  /** Last message the push service accepted for this browser. */
  lastSuccessAt: z.string().nullable(),
  /** Last time it reported a notification shown or opened (channel health's proof that it receives). */
  lastReceiptAt: z.string().nullable(),
  /** Since when its daily checks went unanswered: it is not receiving. Null while it receives. */
  notReceivingSince: z.string().nullable(),
});
export type PushBrowser = z.infer<typeof pushBrowser>;
export const pushBrowsersResponse = envelope(z.object({ subscriptions: z.array(pushBrowser) }));

/** `POST /push/unsubscribe`: this browser stops receiving the caller's alerts (on sign-out). */
export const pushUnsubscribeBody = z.object({
  // Any URL: a browser saved before the endpoint rules must still be able to leave.
  endpoint: z.string().url().max(2048),
});
