import { type AdminStats, adminStatsResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/stats: users, devices and unread alerts on the platform. */
export const getStats = async (): Promise<AdminStats> =>
  (await apiRequest('/admin/stats', { auth: 'admin', schema: adminStatsResponse })).data;
