import type { PushMessage } from '../schemas/push.ts';

/** Where a person sees and manages their channels: Profile. */
export const PROFILE_PAGE_PATH = '/dashboard/profile';

/**
 * Channel health (issue 30, point 5). A browser proves it still receives each time it reports a
 * push shown or opened (a receipt). Without one for `STALE_AFTER_HOURS`, it gets one check a day;
 * after `UNANSWERED_CHECKS_LIMIT` checks in a row bring no receipt, it is "not receiving".
 *
 * - 24 h: a person who uses the app daily, or gets any alert, proves their browser without a check;
 *   a day is also the period Apple and Google use to batch low-urgency pushes on an idle phone, so
 *   a shorter wait would mostly test the phone's power saving, not the subscription.
 * - 2 unanswered checks: one missed check is a phone switched off for a night or a flight; two in a
 *   row (at least 48 h after the first, 72 h without any receipt) is a subscription that stopped
 *   working, as in the Nightscout follower reports of issue 30. It is told once, when it happens.
 */
export const CHANNEL_HEALTH = {
  STALE_AFTER_HOURS: 24,
  CHECK_EVERY_HOURS: 24,
  UNANSWERED_CHECKS_LIMIT: 2,
} as const;

/** One tag for every check: each new check replaces the last on the screen. */
export const CHANNEL_CHECK_TAG = 'vitalwatch:channel-check';

/**
 * The daily check: brief and low priority (browsers require every push to show something), with a
 * fixed tag so only the newest one is ever on screen. The receipt of its showing is the proof.
 */
export const channelCheckNotification = (): PushMessage => ({
  title: 'VitalWatch check',
  body: 'Checking that alerts reach this browser. No action needed.',
  tag: CHANNEL_CHECK_TAG,
  url: PROFILE_PAGE_PATH,
  priority: 'low',
});

/** What a person is told, on their other channels, when a browser of theirs stops receiving. */
export const notReceivingNotice = (browser: string) => ({
  title: 'A browser stopped receiving VitalWatch alerts',
  message:
    `${browser} has not shown VitalWatch notifications, nor its daily checks, for ${CHANNEL_HEALTH.UNANSWERED_CHECKS_LIMIT} days. ` +
    'Open VitalWatch on it to connect it again, or remove it in Profile.',
});

/** The notice as a push to the person's other browsers that still receive (one tag: the newest replaces older ones). */
export const notReceivingPush = (browser: string): PushMessage => {
  const { title, message } = notReceivingNotice(browser);
  return {
    title,
    body: message,
    tag: 'vitalwatch:channel-notice',
    url: PROFILE_PAGE_PATH,
    priority: 'medium',
  };
};

export const CHANNEL_HEALTH_MESSAGES = {
  checksOn: 'Daily checks of your browsers turned on',
  checksOff: 'Daily checks of your browsers turned off',
} as const;
