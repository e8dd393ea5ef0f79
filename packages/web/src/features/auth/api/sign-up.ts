import { type AuthResponse, contracts, type SignupInput } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.user.signUp`: the new account with its first token pair. */
export const signUp = (user: SignupInput): Promise<AuthResponse> =>
  callContract(contracts.user.signUp, { body: { user } });
