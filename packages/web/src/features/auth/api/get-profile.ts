import { type PublicUser, profileResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';
import type { SentRequest } from '@/lib/api-send.ts';

/** GET /user/profile: the signed-in user (`data.user`); `sent` when the request already left. */
export const getProfile = async (sent?: SentRequest): Promise<PublicUser> =>
  (await apiRequest('/user/profile', { method: 'GET', schema: profileResponse, sent })).data.user;
