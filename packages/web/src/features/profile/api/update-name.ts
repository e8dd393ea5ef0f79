import { type PublicUser, profileResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /user/update-name: the updated user. */
export const updateName = async (fullName: string): Promise<PublicUser> =>
  (await apiRequest('/user/update-name', { body: { fullName }, schema: profileResponse })).data.user;
