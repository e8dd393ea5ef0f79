import { type SystemStatus, systemStatusResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /admin/system-status: the platform's components, each checked now. */
export const getSystemStatus = async (): Promise<SystemStatus> =>
  (await apiRequest('/admin/system-status', { auth: 'admin', schema: systemStatusResponse })).data;
