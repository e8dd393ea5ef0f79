/**
 * The alert id of a message that belongs to no alert (a webhook test, a replayed test, a channel
 * check, a channel-health notice): no alert has it, so its outcome reaches no timeline.
 */
export const NO_ALERT_ID = '00000000-0000-0000-0000-000000000000';
