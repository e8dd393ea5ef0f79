import { profileResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/channel-checks: turns the daily check of silent browsers on or off; the server's message and the user. */
export const setChannelChecks = async (enabled: boolean) => {
  const response = await apiRequest('/user/channel-checks', { body: { enabled }, schema: profileResponse });
  return { message: response.message, user: response.data.user };
};
