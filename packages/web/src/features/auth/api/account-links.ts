import { type AccountLinkPurpose, contracts } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';

/** POST /account/forgot-password: the same answer whether or not an account has the address. */
export const forgotPassword = (email: string) =>
  callContract(contracts.account.forgotPassword, { body: { email } });

/** POST /account/link-status: whether a mailed link still works. */
export const linkStatus = async (token: string, purpose: AccountLinkPurpose) =>
  (await callContract(contracts.account.linkStatus, { body: { token, purpose } })).data.state;

/** POST /account/reset-password: a new password with the link; every session ends. */
export const resetPassword = (token: string, newPassword: string, cnfPassword: string) =>
  callContract(contracts.account.resetPassword, { body: { token, newPassword, cnfPassword } });

/** POST /account/verify-email. */
export const verifyEmail = (token: string) =>
  callContract(contracts.account.verifyEmail, { body: { token } });
