import {
  type LoginInput,
  type LoginResponse,
  loginResponse,
  twoFactorLoginResponse,
} from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/**
 * POST /user/login with a username or an email address: a session, or (two-factor sign-in) the
 * challenge for the second step.
 */
export const logIn = (user: LoginInput): Promise<LoginResponse> =>
  apiRequest('/user/login', { body: { user }, auth: 'none', schema: loginResponse });

/** POST /user/login/two-factor: the code (or a recovery code) for the challenge the password earned. */
export const logInSecondStep = (challengeToken: string, code: string) =>
  apiRequest('/user/login/two-factor', {
    body: { challengeToken, code },
    auth: 'none',
    schema: twoFactorLoginResponse,
  });
