import type { AuthResponse, SignupInput } from '@vitalwatch/shared';
import { userContracts } from '@vitalwatch/shared/contracts/user';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.user.signUp`: the new account with its first token pair. */
export const signUp = (user: SignupInput): Promise<AuthResponse> =>
  callContract(userContracts.signUp, { body: { user } });
