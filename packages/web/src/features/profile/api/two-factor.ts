import { profileResponse, twoFactorCodesResponse, twoFactorSetupResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';
import { getRefreshToken, storeTokens } from '@/lib/token-storage.ts';

/** POST /user/two-factor/setup: a new secret to scan (the password again first). */
export const startTwoFactorSetup = async (password: string) =>
  (await apiRequest('/user/two-factor/setup', { body: { password }, schema: twoFactorSetupResponse })).data;

/**
 * POST /user/two-factor/enable with the app's first code. This browser's session now counts as
 * two-factor: the access token the server returns says so, and is kept.
 */
export const enableTwoFactor = async (code: string) => {
  const response = await apiRequest('/user/two-factor/enable', {
    body: { code },
    schema: twoFactorCodesResponse,
  });
  const refreshToken = getRefreshToken();
  if (response.data.accessToken && refreshToken)
    storeTokens({ accessToken: response.data.accessToken, refreshToken });
  return response;
};

/** POST /user/two-factor/disable: the password and a code. */
export const disableTwoFactor = (password: string, code: string) =>
  apiRequest('/user/two-factor/disable', { body: { password, code }, schema: profileResponse });

/** POST /user/two-factor/recovery-codes: a code replaces every recovery code. */
export const renewRecoveryCodes = (code: string) =>
  apiRequest('/user/two-factor/recovery-codes', { body: { code }, schema: twoFactorCodesResponse });
