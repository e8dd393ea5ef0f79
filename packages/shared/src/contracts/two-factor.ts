import { SERVER_MESSAGES } from '../messages.ts';
import {
  recoveryCodesBody,
  TWO_FACTOR_MESSAGES,
  twoFactorCodesResponse,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorLoginBody,
  twoFactorLoginResponse,
  twoFactorSetupBody,
  twoFactorSetupResponse,
} from '../schemas/two-factor.ts';
import { profileResponse } from '../schemas/user.ts';
import { defineContracts } from './contract.ts';

/**
 * Two-factor sign-in under `/api/v1/user`: the second step of a sign-in (public: the challenge
 * token stands for the password), and the profile's setup, turning off and recovery codes.
 */
export const twoFactorContracts = defineContracts('/user', 'signed-in', {
  logInSecondStep: {
    method: 'POST',
    path: '/login/two-factor',
    auth: 'public',
    summary: 'Finish sign-in with a second factor',
    body: twoFactorLoginBody,
    response: twoFactorLoginResponse,
    message: SERVER_MESSAGES.loggedIn,
    errors: [401, 409],
  },
  startSetup: {
    method: 'POST',
    path: '/two-factor/setup',
    summary: 'Start setting up an authenticator app',
    body: twoFactorSetupBody,
    response: twoFactorSetupResponse,
    message: TWO_FACTOR_MESSAGES.setupStarted,
    errors: [409],
  },
  enable: {
    method: 'POST',
    path: '/two-factor/enable',
    summary: 'Turn on two-factor sign-in',
    body: twoFactorEnableBody,
    response: twoFactorCodesResponse,
    message: TWO_FACTOR_MESSAGES.enabled,
    errors: [409],
  },
  disable: {
    method: 'POST',
    path: '/two-factor/disable',
    summary: 'Turn off two-factor sign-in',
    body: twoFactorDisableBody,
    response: profileResponse,
    message: TWO_FACTOR_MESSAGES.disabled,
    errors: [403, 409],
  },
  renewRecoveryCodes: {
    method: 'POST',
    path: '/two-factor/recovery-codes',
    summary: 'Replace the recovery codes',
    body: recoveryCodesBody,
    response: twoFactorCodesResponse,
    message: TWO_FACTOR_MESSAGES.recoveryCodesRenewed,
    errors: [409],
  },
});
