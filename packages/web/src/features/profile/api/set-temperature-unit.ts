import { profileResponse, type TemperatureUnit } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/temperature-unit: how temperatures are shown to this user; the server's message and the user. */
export const setTemperatureUnit = async (unit: TemperatureUnit) => {
  const response = await apiRequest('/user/temperature-unit', { body: { unit }, schema: profileResponse });
  return { message: response.message, user: response.data.user };
};
