import { messageOnly, type PushBrowser, pushBrowsersResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /push/subscriptions: the browsers that receive this user's push notifications. */
export const getPushBrowsers = async (): Promise<PushBrowser[]> =>
  (await apiRequest('/push/subscriptions', { schema: pushBrowsersResponse })).data.subscriptions;

/** POST /push/subscriptions/:id/delete: that browser stops receiving the user's notifications. */
export const removePushBrowser = async (id: string): Promise<void> => {
  await apiRequest(`/push/subscriptions/${encodeURIComponent(id)}/delete`, { schema: messageOnly });
};
