import { type UserGrowthEntry, userGrowthResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/user-growth: new users per day for the last 7 days, counted in `timeZone`. */
export const getUserGrowth = async (timeZone: string): Promise<UserGrowthEntry[]> =>
  (await apiRequest('/admin/user-growth', { body: { timeZone }, auth: 'admin', schema: userGrowthResponse }))
    .data;
