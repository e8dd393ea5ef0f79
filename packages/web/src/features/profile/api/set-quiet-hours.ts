import { profileResponse, type QuietHours } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/quiet-hours: the daily window for low-priority alerts, or null for none. */
export const setQuietHours = async (quietHours: QuietHours | null) => {
  const response = await apiRequest('/user/quiet-hours', { body: { quietHours }, schema: profileResponse });
  return { message: response.message, user: response.data.user };
};
