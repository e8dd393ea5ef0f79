import type { PublicUser } from '@vitalwatch/shared';
import { userContracts } from '@vitalwatch/shared/contracts/user';
import type { SentRequest } from '@/lib/api-send.ts';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.user.getProfile`: the signed-in user; `sent` when the request already left. */
export const getProfile = async (sent?: SentRequest): Promise<PublicUser> =>
  (await callContract(userContracts.getProfile, {}, { sent })).data.user;
