import { contracts } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.user.logOut`: revokes this browser's refresh token on the server. */
export const logOut = (refreshToken: string | null) =>
  callContract(contracts.user.logOut, { body: refreshToken ? { refreshToken } : undefined });
