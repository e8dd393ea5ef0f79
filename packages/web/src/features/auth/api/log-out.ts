import { userContracts } from '@vitalwatch/shared/contracts/user';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.user.logOut`: revokes this browser's refresh token on the server (inside `endingSession`). */
export const logOut = (refreshToken: string | null) =>
  callContract(
    userContracts.logOut,
    { body: refreshToken ? { refreshToken } : undefined },
    { endsSession: true },
  );
