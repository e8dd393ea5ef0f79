import { profileResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/alert-emails: turns the email for every new alert on or off; the server's message and the user. */
export const setAlertEmails = async (enabled: boolean) => {
  const response = await apiRequest('/user/alert-emails', { body: { enabled }, schema: profileResponse });
  return { message: response.message, user: response.data.user };
};
