import { changePasswordResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';
import { getRefreshToken, storeTokens } from '@/lib/token-storage.ts';

/**
 * POST /user/change-password. Sends this browser's refresh token so that only this login
 * survives (the server ends every other session) and keeps the fresh access token it returns.
 */
export const changePassword = async (oldPassword: string, newPassword: string): Promise<void> => {
  const refreshToken = getRefreshToken();
  const { data } = await apiRequest('/user/change-password', {
    body: { oldPassword, newPassword, refreshToken: refreshToken ?? undefined },
    schema: changePasswordResponse,
  });
  if (refreshToken) storeTokens({ accessToken: data.accessToken, refreshToken });
};
