import { type AuthResponse, authResponse, type SignupInput } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/create: the new account with its first token pair. */
export const signUp = (user: SignupInput): Promise<AuthResponse> =>
  apiRequest('/user/create', { body: { user }, auth: 'none', schema: authResponse });
