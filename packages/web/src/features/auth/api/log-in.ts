import type { LoginInput, LoginResponse } from '@vitalwatch/shared';
import { twoFactorContracts } from '@vitalwatch/shared/contracts/two-factor';
import { userContracts } from '@vitalwatch/shared/contracts/user';
import { callContract } from '@/lib/call-contract.ts';

/**
 * `contracts.user.logIn` with a username or an email address: a session, or (two-factor sign-in)
 * the challenge for the second step.
 */
export const logIn = (user: LoginInput): Promise<LoginResponse> =>
  callContract(userContracts.logIn, { body: { user } });

/** `contracts.twoFactor.logInSecondStep`: the code (or a recovery code) for the challenge the password earned. */
export const logInSecondStep = (challengeToken: string, code: string) =>
  callContract(twoFactorContracts.logInSecondStep, { body: { challengeToken, code } });
