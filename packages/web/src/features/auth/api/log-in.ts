import { contracts, type LoginInput, type LoginResponse } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';

/**
 * `contracts.user.logIn` with a username or an email address: a session, or (two-factor sign-in)
 * the challenge for the second step.
 */
export const logIn = (user: LoginInput): Promise<LoginResponse> =>
  callContract(contracts.user.logIn, { body: { user } });

/** `contracts.twoFactor.logInSecondStep`: the code (or a recovery code) for the challenge the password earned. */
export const logInSecondStep = (challengeToken: string, code: string) =>
  callContract(contracts.twoFactor.logInSecondStep, { body: { challengeToken, code } });
