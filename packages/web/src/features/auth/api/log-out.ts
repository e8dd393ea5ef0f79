import { messageOnly } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/logout: revokes this browser's refresh token on the server. */
export const logOut = (refreshToken: string | null) =>
  apiRequest('/user/logout', {
    body: refreshToken ? { refreshToken } : undefined,
    schema: messageOnly,
  });
