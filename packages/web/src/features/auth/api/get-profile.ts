import { type PublicUser, profileResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** GET /user/profile: the signed-in user (`data.user`). */
export const getProfile = async (): Promise<PublicUser> =>
  (await apiRequest('/user/profile', { method: 'GET', schema: profileResponse })).data.user;
