import { type AdminDevice, adminDeviceResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

export type CodeType = 'activationCode' | 'apiAuthCode';

/** POST /admin/regenerate-code/:id?codeType=…: replaces one code; the old one stops working at once. */
export const regenerateCode = async (id: string, codeType: CodeType): Promise<AdminDevice> =>
  (
    await apiRequest(`/admin/regenerate-code/${encodeURIComponent(id)}?codeType=${codeType}`, {
      auth: 'admin',
      schema: adminDeviceResponse,
    })
  ).data.device;
