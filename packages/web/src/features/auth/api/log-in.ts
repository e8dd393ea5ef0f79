import { type AuthResponse, authResponse, type LoginInput } from '@vitalwatch/shared';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /user/login with a username or an email address. */
export const logIn = (user: LoginInput): Promise<AuthResponse> =>
  apiRequest('/user/login', { body: { user }, auth: 'none', schema: authResponse });
